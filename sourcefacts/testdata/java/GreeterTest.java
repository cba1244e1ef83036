package com.example.app;

class GreeterTest {
    void testRun() {
        new Greeter("x").run();
    }
}
