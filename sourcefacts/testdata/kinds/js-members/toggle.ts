export class Toggle {
  private onToggle = () => {
    flip();
  };
}
