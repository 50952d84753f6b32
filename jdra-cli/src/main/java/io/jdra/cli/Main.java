package io.jdra.cli;

public final class Main {
  public static void main(String[] args) {}
}
