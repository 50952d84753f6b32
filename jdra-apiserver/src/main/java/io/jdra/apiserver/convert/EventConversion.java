package io.jdra.apiserver.convert;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts between events.k8s.io/v1 Events and the core/v1 form both APIs are stored in, field by
 * field as upstream's conversion of the events group: {@code regarding} is {@code involvedObject},
 * {@code note} is {@code message}, {@code reportingController} is {@code reportingComponent} and
 * the {@code deprecated*} fields are the core ones without the prefix. Stateless; in place.
 */
final class EventConversion {
  static final String GROUP = "events.k8s.io";

  /** events.k8s.io name, core name. */
  private static final String[][] RENAMES = {
    {"regarding", "involvedObject"},
    {"note", "message"},
    {"reportingController", "reportingComponent"},
    {"deprecatedSource", "source"},
    {"deprecatedFirstTimestamp", "firstTimestamp"},
    {"deprecatedLastTimestamp", "lastTimestamp"},
    {"deprecatedCount", "count"},
  };

  private EventConversion() {}

  static ObjectNode toCore(ObjectNode event) {
    for (String[] r : RENAMES) {
      move(event, r[0], r[1]);
    }
    return event;
  }

  static ObjectNode fromCore(ObjectNode event) {
    for (String[] r : RENAMES) {
      move(event, r[1], r[0]);
    }
    return event;
  }

  private static void move(ObjectNode o, String from, String to) {
    JsonNode v = o.remove(from);
    if (v != null) {
      o.set(to, v);
    }
  }
}
