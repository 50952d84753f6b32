package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.vertx.core.buffer.Buffer;
import tools.jackson.databind.JsonNode;

/** Writes JSON responses and Status errors. Stateless. */
final class Responses {
  static final String JSON = "application/json";

  private Responses() {}

  static void json(Exchange r, int code, Buffer body) {
    if (r.ended() || r.closed()) {
      return;
    }
    r.setStatusCode(code);
    r.putHeader("Content-Type", JSON);
    r.putHeader("Cache-Control", "no-cache, private");
    r.end(body);
  }

  static void json(Exchange r, int code, JsonNode body) {
    json(r, code, Buffer.buffer(Json.bytes(body)));
  }

  static void json(Exchange r, int code, String contentType, JsonNode body) {
    if (r.ended() || r.closed()) {
      return;
    }
    r.setStatusCode(code);
    r.putHeader("Content-Type", contentType);
    r.end(Buffer.buffer(Json.bytes(body)));
  }

  static void error(Exchange r, ApiException e) {
    json(r, e.code(), e.toStatus());
  }

  static void text(Exchange r, int code, String body) {
    if (r.ended() || r.closed()) {
      return;
    }
    r.setStatusCode(code);
    r.putHeader("Content-Type", "text/plain; charset=utf-8");
    r.end(body);
  }
}
