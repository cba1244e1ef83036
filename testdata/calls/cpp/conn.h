#pragma once

class Conn {
 public:
  void send();
  static Conn open();
};
