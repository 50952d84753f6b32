package io.jdra.exampledriver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The prepared claims as the driver knows them, and their persisted form {@code <plugin
 * dir>/checkpoint.json} (upstream checkpoint.go, {@code checkpoint.internal.example.com/v1} kind
 * {@code Checkpoint}): a restarted driver knows what it prepared, so prepare stays idempotent and
 * unprepare still works. Besides the claim UID (all upstream stores) each entry lists the claim's
 * devices, which lets the driver refuse a device that is already prepared for another claim;
 * upstream's decoder ignores the extra field.
 *
 * <p>Every change gets the next {@link #version()}; {@link #snapshot()} renders the content of one
 * version, which {@link CheckpointWriter} persists. Each claim's JSON is rendered once, when it is
 * added, so a snapshot of a node with many prepared claims only joins bytes. Not thread-safe (the
 * DeviceState lock guards it).
 */
final class Checkpoint {
  static final String FILE = "checkpoint.json";
  static final String API_VERSION = "checkpoint.internal.example.com/v1";

  /** One device of a prepared claim. */
  record PreparedDevice(String pool, String device, String shareId) {}

  /** The content of one version, as it goes to disk. */
  record Snapshot(long version, byte[] bytes) {}

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static final byte[] HEAD =
      ("{\n  \"apiVersion\": \"" + API_VERSION + "\",\n  \"kind\": \"Checkpoint\"")
          .getBytes(StandardCharsets.UTF_8);

  private final Map<String, List<PreparedDevice>> claims = new LinkedHashMap<>();
  private final Map<String, byte[]> rendered = new LinkedHashMap<>();
  private long version;

  private Checkpoint() {}

  /**
   * Reads the checkpoint at {@code path}; a missing file is an empty checkpoint. Its content gets
   * {@code version} (0 at start; the current version when read again, so versions keep growing).
   *
   * @throws UncheckedIOException unreadable or not a checkpoint (message names the file)
   */
  static Checkpoint read(Path path, long version) {
    Checkpoint c = new Checkpoint();
    try {
      JsonNode root = JSON.readTree(Files.readAllBytes(path));
      for (JsonNode claim : root.path("preparedClaims")) {
        List<PreparedDevice> devices = new ArrayList<>();
        for (JsonNode d : claim.path("devices")) {
          devices.add(
              new PreparedDevice(
                  d.path("pool").asString(),
                  d.path("device").asString(),
                  d.hasNonNull("shareID") ? d.get("shareID").asString() : null));
        }
        c.put(claim.path("uid").asString(), devices);
      }
    } catch (NoSuchFileException e) {
      // empty
    } catch (IOException | RuntimeException e) {
      throw new UncheckedIOException(
          "unmarshal JSON from " + path + ": " + e.getMessage(),
          e instanceof IOException io ? io : new IOException(e));
    }
    c.version = version;
    return c;
  }

  boolean contains(String uid) {
    return claims.containsKey(uid);
  }

  /** The prepared claims, read-only. */
  Map<String, List<PreparedDevice>> claims() {
    return java.util.Collections.unmodifiableMap(claims);
  }

  /** The version of the current content; 0 is what was read. */
  long version() {
    return version;
  }

  long put(String uid, List<PreparedDevice> devices) {
    List<PreparedDevice> copy = List.copyOf(devices);
    claims.put(uid, copy);
    rendered.put(uid, render(uid, copy));
    return ++version;
  }

  long remove(String uid) {
    claims.remove(uid);
    rendered.remove(uid);
    return ++version;
  }

  /** The current content, in the format upstream's pretty JSON encoder uses for the envelope. */
  Snapshot snapshot() {
    int size = HEAD.length + 64;
    for (byte[] b : rendered.values()) {
      size += b.length + 8;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(size);
    out.writeBytes(HEAD);
    if (!rendered.isEmpty()) {
      out.writeBytes(",\n  \"preparedClaims\": [".getBytes(StandardCharsets.UTF_8));
      String sep = "\n    ";
      for (byte[] b : rendered.values()) {
        out.writeBytes(sep.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(b);
        sep = ",\n    ";
      }
      out.writeBytes("\n  ]".getBytes(StandardCharsets.UTF_8));
    }
    out.writeBytes("\n}\n".getBytes(StandardCharsets.UTF_8));
    return new Snapshot(version, out.toByteArray());
  }

  /** One claim's entry, indented as in the whole document (Go's json.MarshalIndent style). */
  private static byte[] render(String uid, List<PreparedDevice> devices) {
    StringBuilder b = new StringBuilder(128 + 96 * devices.size());
    b.append("{\n      \"uid\": ").append(quote(uid));
    if (!devices.isEmpty()) {
      b.append(",\n      \"devices\": [");
      String sep = "\n        {";
      for (PreparedDevice d : devices) {
        b.append(sep).append("\n          \"pool\": ").append(quote(d.pool()));
        b.append(",\n          \"device\": ").append(quote(d.device()));
        if (d.shareId() != null) {
          b.append(",\n          \"shareID\": ").append(quote(d.shareId()));
        }
        b.append("\n        }");
        sep = ",\n        {";
      }
      b.append("\n      ]");
    }
    return b.append("\n    }").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String quote(String s) {
    return JSON.writeValueAsString(s);
  }
}
