package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.registry.ResourceType.Column;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Builds meta.k8s.io/v1 Table responses for {@code kubectl get}. Stateless. */
final class Tables {
  private Tables() {}

  /** A Table of the given objects (stored form), with column definitions. */
  static ObjectNode table(ResourceType t, List<ObjectNode> objects, String rv, Instant now) {
    ObjectNode table = Json.object();
    table.put("kind", "Table");
    table.put("apiVersion", "meta.k8s.io/v1");
    ObjectNode meta = table.putObject("metadata");
    if (rv != null) {
      meta.put("resourceVersion", rv);
    }
    ArrayNode defs = table.putArray("columnDefinitions");
    if (t.standardColumns()) {
      def(defs, "Name", "string", "name", 0, "Name must be unique within a namespace.");
    }
    for (Column c : t.columns()) {
      def(
          defs,
          c.name().charAt(0) + c.name().substring(1).toLowerCase(java.util.Locale.ROOT),
          c.type(),
          "",
          c.priority(),
          c.name());
    }
    if (t.standardColumns()) {
      def(
          defs,
          "Age",
          "string",
          "",
          0,
          "CreationTimestamp is a timestamp representing the server"
              + " time when this object was created.");
    }
    ArrayNode rows = table.putArray("rows");
    for (ObjectNode o : objects) {
      rows.add(row(t, o, now));
    }
    return table;
  }

  private static void def(
      ArrayNode defs, String name, String type, String format, int priority, String description) {
    ObjectNode d = defs.addObject();
    d.put("name", name);
    d.put("type", type);
    d.put("format", format);
    d.put("description", description);
    d.put("priority", priority);
  }

  private static ObjectNode row(ResourceType t, ObjectNode o, Instant now) {
    ObjectNode row = Json.object();
    ArrayNode cells = row.putArray("cells");
    if (t.standardColumns()) {
      cells.add(Json.text(o, "metadata.name"));
    }
    for (Column c : t.columns()) {
      String v = c.printer() != null ? c.printer().print(o) : Json.text(o, c.path());
      if (c.since()) {
        v = age(v, now);
      } else if (v == null) {
        v = c.type().equals("integer") ? "0" : "<none>";
      }
      cells.add(v);
    }
    if (t.standardColumns()) {
      cells.add(age(Json.text(o, "metadata.creationTimestamp"), now));
    }
    ObjectNode partial = row.putObject("object");
    partial.put("kind", "PartialObjectMetadata");
    partial.put("apiVersion", "meta.k8s.io/v1");
    partial.set("metadata", o.get("metadata"));
    return row;
  }

  /** Age as upstream's duration.HumanDuration prints it. */
  static String age(String created, Instant now) {
    if (created == null) {
      return "<unknown>";
    }
    Duration d;
    try {
      d = Duration.between(Instant.parse(created), now);
    } catch (java.time.format.DateTimeParseException e) {
      return "<unknown>";
    }
    return humanDuration(d);
  }

  static String humanDuration(Duration d) {
    long seconds = d.toSeconds();
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 120) {
      return seconds + "s";
    }
    long minutes = d.toMinutes();
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 180) {
      return minutes + "m";
    }
    long hours = d.toHours();
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long dy = (hours / 24) % 365;
      return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
    }
    return hours / 24 / 365 + "y";
  }
}
