package io.jdra.kubelet.dra;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The health state file's format: Go's JSON of upstream's {@code state.DevicesHealthMap}, i.e.
 * {@code {"<driver>":{"Devices":{"<pool>/<device>":{"PoolName":..,"DeviceName":..,"Health":..,
 * "LastUpdated":"<RFC 3339>","HealthCheckTimeout":<nanoseconds>,"Message":..}}}}}. Missing fields
 * read as Go's zero values (an older file has no timeout or message: the default timeout applies).
 */
final class HealthStateCodec {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Go's zero time.Time, what a device without an update time is written as. */
  private static final String ZERO_TIME = "0001-01-01T00:00:00Z";

  private HealthStateCodec() {}

  static String encode(Map<String, Map<String, DeviceHealth>> byDriver) {
    ObjectNode root = NODES.objectNode();
    byDriver.forEach((driver, devices) -> {
      ObjectNode out = root.putObject(driver).putObject("Devices");
      devices.forEach((key, d) -> {
        ObjectNode n = out.putObject(key);
        n.put("PoolName", d.poolName());
        n.put("DeviceName", d.deviceName());
        n.put("Health", d.health());
        n.put("LastUpdated", d.lastUpdated() == null ? ZERO_TIME : d.lastUpdated().toString());
        n.put("HealthCheckTimeout", d.healthCheckTimeout().toNanos());
        n.put("Message", d.message());
      });
    });
    return JSON.writeValueAsString(root);
  }

  /**
   * @throws IllegalArgumentException when the content is not such a map
   */
  static Map<String, Map<String, DeviceHealth>> decode(String content) {
    JsonNode root;
    try {
      root = JSON.readTree(content);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("health state is not valid JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("health state is not a JSON object");
    }
    Map<String, Map<String, DeviceHealth>> out = new TreeMap<>();
    for (var driver : root.properties()) {
      Map<String, DeviceHealth> devices = new TreeMap<>();
      for (var device : driver.getValue().path("Devices").properties()) {
        JsonNode n = device.getValue();
        long timeout = n.path("HealthCheckTimeout").asLong(0);
        devices.put(
            device.getKey(),
            new DeviceHealth(
                n.path("PoolName").asString(""),
                n.path("DeviceName").asString(""),
                n.path("Health").asString(DeviceHealth.UNKNOWN),
                time(n.path("LastUpdated").asString(ZERO_TIME)),
                timeout > 0 ? Duration.ofNanos(timeout) : HealthInfoCache.DEFAULT_HEALTH_TIMEOUT,
                n.path("Message").asString("")));
      }
      out.put(driver.getKey(), devices);
    }
    return out;
  }

  /** Go writes times in the kubelet's zone ({@code Z} or an offset). */
  private static Instant time(String s) {
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("health state has a bad LastUpdated " + s, e);
    }
  }
}
