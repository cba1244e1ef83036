#[test]
fn works() {
    assert_eq!(1, 1);
}
