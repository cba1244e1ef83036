package com.example.app;

import java.util.List;
import java.util.*;
import static java.lang.Math.max;

/**
 * Greeter greets.
 */
public class Greeter extends Base implements Runnable {
    private final String name;

    public Greeter(String name) {
        this.name = name;
    }

    /** Run greets. */
    @Override
    public void run() {
        System.out.println(format(name));
        helper();
    }

    interface Listener {
        void onGreet(String who);
    }

    enum Mood { HAPPY, SAD }
}
