package io.jdra.apiserver.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The computed {@code kubectl get} columns of the built-in kinds, as upstream's printers ({@code
 * pkg/printers/internalversion/printers.go}) compute them. Stateless; objects in the storage
 * version.
 */
final class Printers {
  private Printers() {}

  /** Pods' READY: ready containers / containers. */
  static String podReady(JsonNode o) {
    int ready = 0;
    for (JsonNode c : o.at("/status/containerStatuses")) {
      if (c.path("ready").asBoolean(false)) {
        ready++;
      }
    }
    return ready + "/" + o.at("/spec/containers").size();
  }

  /** Pods' RESTARTS: the sum over container statuses. */
  static String podRestarts(JsonNode o) {
    long s = 0;
    for (JsonNode n : o.at("/status/containerStatuses")) {
      s += n.path("restartCount").asLong(0);
    }
    return Long.toString(s);
  }

  /** Nodes' STATUS: Ready or NotReady from the Ready condition, then SchedulingDisabled. */
  static String nodeStatus(JsonNode o) {
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

  /** Nodes' ROLES: the {@code node-role.kubernetes.io/} label suffixes. */
  static String nodeRoles(JsonNode o) {
    List<String> roles = new ArrayList<>();
    for (Map.Entry<String, JsonNode> l : o.at("/metadata/labels").properties()) {
      if (l.getKey().startsWith("node-role.kubernetes.io/")) {
        roles.add(l.getKey().substring("node-role.kubernetes.io/".length()));
      }
    }
    return roles.isEmpty() ? "<none>" : String.join(",", roles);
  }

  /** Core events' OBJECT: {@code kind/name} of the involved object. */
  static String eventObject(JsonNode o) {
    String kind = text(o.at("/involvedObject/kind"));
    return (kind == null ? "" : kind.toLowerCase(Locale.ROOT))
        + "/"
        + text(o.at("/involvedObject/name"));
  }

  /**
   * Events' LAST SEEN as a timestamp: the series' last observation, else lastTimestamp, else
   * eventTime (events.k8s.io writers set only that).
   */
  static String eventLastSeen(JsonNode o) {
    String series = text(o.at("/series/lastObservedTime"));
    if (series != null) {
      return series;
    }
    String last = text(o.at("/lastTimestamp"));
    return last != null ? last : text(o.at("/eventTime"));
  }

  /** Events' FIRST SEEN as a timestamp: eventTime if set, else firstTimestamp. */
  static String eventFirstSeen(JsonNode o) {
    String t = text(o.at("/eventTime"));
    return t != null ? t : text(o.at("/firstTimestamp"));
  }

  /** Events' COUNT: the series' count when there is one, else count. */
  static String eventCount(JsonNode o) {
    JsonNode series = o.at("/series/count");
    return Integer.toString(series.isMissingNode() ? o.path("count").asInt(0) : series.asInt(0));
  }

  /**
   * Events' SOURCE: "component, host", each falling back to the reporting controller and instance
   * as upstream's printer does.
   */
  static String eventSource(JsonNode o) {
    String component = text(o.at("/source/component"));
    if (component == null || component.isEmpty()) {
      component = text(o.at("/reportingComponent"));
    }
    String host = text(o.at("/source/host"));
    if (host == null || host.isEmpty()) {
      host = text(o.at("/reportingInstance"));
    }
    component = component == null ? "" : component;
    return host == null || host.isEmpty() ? component : component + ", " + host;
  }

  /** ConfigMaps' and Secrets' DATA: the number of keys. */
  static String dataCount(JsonNode o) {
    return Integer.toString(o.path("data").size() + o.path("binaryData").size());
  }

  /** Deployments' READY: ready / desired replicas. */
  static String deploymentReady(JsonNode o) {
    return o.at("/status/readyReplicas").asInt(0) + "/" + o.at("/spec/replicas").asInt(1);
  }

  /** Jobs' COMPLETIONS: succeeded / completions. */
  static String jobCompletions(JsonNode o) {
    return o.at("/status/succeeded").asInt(0) + "/" + o.at("/spec/completions").asInt(1);
  }

  /** ResourceClaims' STATE: deleted, allocated, reserved or pending, as upstream's printer. */
  static String claimState(JsonNode o) {
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

  /** ResourceClaims' DEVICES (wide): {@code driver/pool/device} of each result. */
  static String claimDevices(JsonNode o) {
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

  private static String text(JsonNode n) {
    return n.isMissingNode() || n.isNull() || n.isContainer() ? null : n.asString();
  }
}
