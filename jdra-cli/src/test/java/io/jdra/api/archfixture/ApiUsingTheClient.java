package io.jdra.api.archfixture;

/** A deliberate violation (test sources only): jdra-api code using the fabric8 client. */
public final class ApiUsingTheClient {
  private ApiUsingTheClient() {}

  static Object violate() {
    return io.fabric8.kubernetes.client.Config.empty();
  }
}
