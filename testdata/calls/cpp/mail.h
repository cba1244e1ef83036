#pragma once

// A Mail's send is not a Conn's.
class Mail {
 public:
  void send();
};
