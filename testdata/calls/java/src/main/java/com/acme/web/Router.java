package com.acme.web;

import com.acme.codec.Json;
import com.acme.codec.Xml;

public class Router {
    Object readJson(String s) {
        return Json.parse(s);
    }

    Object readXml(String s) {
        return Xml.parse(s);
    }

    void handle() {
        route();
    }

    void route() {
    }

    String label(String s) {
        return String.format("<%s>", s);
    }
}
