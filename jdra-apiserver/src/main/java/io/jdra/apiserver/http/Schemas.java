package io.jdra.apiserver.http;

import io.jdra.apiserver.registry.ResourceType;
import tools.jackson.databind.node.ObjectNode;

/** Known-field checks for fieldValidation=Strict. */
final class Schemas {
  private Schemas() {}

  static void checkKnown(ResourceType type, ObjectNode body) {
    // Filled in with the fabric8 model classes.
  }
}
