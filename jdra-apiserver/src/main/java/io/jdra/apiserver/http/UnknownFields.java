package io.jdra.apiserver.http;

import io.jdra.apiserver.registry.ResourceType;
import tools.jackson.databind.node.ObjectNode;

/** Finds fields a kind's schema does not know (for fieldValidation=Strict). */
final class UnknownFields {
  private UnknownFields() {}

  /** Throws 400 BadRequest {@code strict decoding error: unknown field "x"} on the first one. */
  static void reject(ResourceType type, ObjectNode body) {
    // Schemas come from the fabric8 model classes; see Schemas.
    Schemas.checkKnown(type, body);
  }
}
