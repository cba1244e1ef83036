require 'json'
require_relative 'lib/helper'

# Outer namespace.
module Outer
  # Greeter greets.
  class Greeter < Base
    def initialize(name)
      @name = name
    end

    # greet says hello.
    def greet(other)
      count = 1
      puts format(@name)
      helper_call
      count + other.size
    end

    def self.build
      new('x')
    end
  end
end

def top_level
  Outer::Greeter.build.greet(2)
end
