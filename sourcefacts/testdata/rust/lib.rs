//! A small crate for extraction tests.
use std::collections::HashMap;
use std::io::{self, Read as R};
use crate::util::*;

/// Shape is a trait.
pub trait Shape {
    fn area(&self) -> f64;
}

/// A point.
#[derive(Debug, Clone)]
pub struct Point {
    x: f64,
}

pub enum Kind {
    A,
    B,
}

impl Point {
    /// new makes a point.
    pub fn new(x: f64) -> Self {
        Point { x: helper(x) }
    }
}

impl Shape for Point {
    fn area(&self) -> f64 {
        self.x.abs() + HashMap::<u8, u8>::new().len() as f64
    }
}

mod inner {
    pub fn helper(x: f64) -> f64 {
        println!("{}", x);
        x
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

type Map = HashMap<String, Point>;

const MAX: u32 = 3;
