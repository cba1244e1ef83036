package com.acme.codec;

public class Json {
    public static Object parse(String s) {
        return s;
    }
}
