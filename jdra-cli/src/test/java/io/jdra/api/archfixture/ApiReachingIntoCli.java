package io.jdra.api.archfixture;

/** A deliberate violation (test sources only): jdra-api code calling into the CLI. */
public final class ApiReachingIntoCli {
  private ApiReachingIntoCli() {}

  static void violate() {
    io.jdra.cli.Main.main(new String[0]);
  }
}
