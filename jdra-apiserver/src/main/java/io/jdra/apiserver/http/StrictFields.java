package io.jdra.apiserver.http;

import io.jdra.apiserver.rest.WriteOptions;
import tools.jackson.databind.node.ObjectNode;

/** {@code fieldValidation=Strict}: rejects unknown fields (400) where a schema is known. */
final class StrictFields {
  private StrictFields() {}

  static void check(Request r, ObjectNode body, WriteOptions opts) {
    if (opts.strictFields()) {
      UnknownFields.reject(r.type(), body);
    }
  }
}
