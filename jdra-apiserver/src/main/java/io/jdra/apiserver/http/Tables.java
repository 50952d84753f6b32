package io.jdra.apiserver.http;

import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.registry.ResourceType.Column;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
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
    def(defs, "Name", "string", "name", 0, "Name must be unique within a namespace.");
    for (Column c : t.columns()) {
      def(
          defs,
          c.name().charAt(0) + c.name().substring(1).toLowerCase(java.util.Locale.ROOT),
          c.type(),
          "",
          c.priority(),
          c.name());
    }
    def(
        defs,
        "Age",
        "string",
        "",
        0,
        "CreationTimestamp is a timestamp representing the server"
            + " time when this object was created.");
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
    cells.add(Json.text(o, "metadata.name"));
    for (Column c : t.columns()) {
      String v =
          c.path().startsWith("=") ? computed(c.path().substring(1), o) : Json.text(o, c.path());
      if (v == null) {
        v = c.type().equals("integer") ? "0" : "<none>";
      }
      cells.add(v);
    }
    cells.add(age(Json.text(o, "metadata.creationTimestamp"), now));
    ObjectNode partial = row.putObject("object");
    partial.put("kind", "PartialObjectMetadata");
    partial.put("apiVersion", "meta.k8s.io/v1");
    partial.set("metadata", o.get("metadata"));
    return row;
  }

  private static String computed(String what, ObjectNode o) {
    return switch (what) {
      case "podReady" -> podReady(o);
      case "podStatus" -> podStatus(o);
      case "podRestarts" -> Long.toString(sum(o.at("/status/containerStatuses"), "restartCount"));
      case "nodeStatus" -> nodeStatus(o);
      case "nodeRoles" -> nodeRoles(o);
      case "eventObject" -> {
        String kind = Json.text(o, "involvedObject.kind");
        yield (kind == null ? "" : kind.toLowerCase(java.util.Locale.ROOT))
            + "/"
            + Json.text(o, "involvedObject.name");
      }
      case "dataCount" -> Integer.toString(o.path("data").size() + o.path("binaryData").size());
      case "deploymentReady" ->
          o.at("/status/readyReplicas").asInt(0) + "/" + o.at("/spec/replicas").asInt(1);
      case "jobCompletions" ->
          o.at("/status/succeeded").asInt(0) + "/" + o.at("/spec/completions").asInt(1);
      case "claimState" -> claimState(o);
      case "claimDevices" -> claimDevices(o);
      default -> null;
    };
  }

  private static long sum(JsonNode array, String field) {
    long s = 0;
    for (JsonNode n : array) {
      s += n.path(field).asLong(0);
    }
    return s;
  }

  private static String podReady(ObjectNode o) {
    int ready = 0;
    for (JsonNode c : o.at("/status/containerStatuses")) {
      if (c.path("ready").asBoolean(false)) {
        ready++;
      }
    }
    return ready + "/" + o.at("/spec/containers").size();
  }

  private static String podStatus(ObjectNode o) {
    if (o.at("/metadata/deletionTimestamp").isString()) {
      return "Terminating";
    }
    String reason = Json.text(o, "status.reason");
    if (reason != null) {
      return reason;
    }
    for (JsonNode c : o.at("/status/containerStatuses")) {
      String waiting = c.at("/state/waiting/reason").asString(null);
      if (waiting != null && !waiting.isEmpty()) {
        return waiting;
      }
    }
    String phase = Json.text(o, "status.phase");
    return phase == null ? "Unknown" : phase;
  }

  private static String nodeStatus(ObjectNode o) {
    String s = "Unknown";
    for (JsonNode c : o.at("/status/conditions")) {
      if ("Ready".equals(c.path("type").asString(""))) {
        s = "True".equals(c.path("status").asString("")) ? "Ready" : "NotReady";
      }
    }
    if (o.at("/spec/unschedulable").asBoolean(false)) {
      s += ",SchedulingDisabled";
    }
    return s;
  }

  private static String nodeRoles(ObjectNode o) {
    List<String> roles = new ArrayList<>();
    for (Map.Entry<String, String> l : Json.stringMap(o.at("/metadata/labels")).entrySet()) {
      if (l.getKey().startsWith("node-role.kubernetes.io/")) {
        roles.add(l.getKey().substring("node-role.kubernetes.io/".length()));
      }
    }
    return roles.isEmpty() ? "<none>" : String.join(",", roles);
  }

  private static String claimState(ObjectNode o) {
    List<String> states = new ArrayList<>();
    boolean deleted = o.at("/metadata/deletionTimestamp").isString();
    if (deleted) {
      states.add("deleted");
    }
    if (o.at("/status/allocation").isObject()) {
      states.add("allocated");
      if (o.at("/status/reservedFor").size() > 0) {
        states.add("reserved");
      }
    } else if (!deleted) {
      states.add("pending");
    }
    return String.join(",", states);
  }

  private static String claimDevices(ObjectNode o) {
    List<String> devices = new ArrayList<>();
    for (JsonNode r : o.at("/status/allocation/devices/results")) {
      devices.add(
          r.path("driver").asString("")
              + "/"
              + r.path("pool").asString("")
              + "/"
              + r.path("device").asString(""));
    }
    return devices.isEmpty() ? "<none>" : String.join(",", devices);
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
