class Counter {
  count = 0;
  onIncrement = () => {
    this.bump();
  };
  #reset = function () {
    zero();
  };
}
