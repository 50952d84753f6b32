package io.jdra.exampledriver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The prepared claims, persisted in {@code <plugin dir>/checkpoint.json} (upstream checkpoint.go,
 * {@code checkpoint.internal.example.com/v1} kind {@code Checkpoint}): a restarted driver knows
 * what it prepared, so prepare stays idempotent and unprepare still works. Besides the claim UID
 * (all upstream stores) each entry lists the claim's devices, which lets the driver refuse a device
 * that is already prepared for another claim; upstream's decoder ignores the extra field.
 *
 * <p>Written as a temporary file, synced and renamed over the old one: a crash leaves the old or
 * the new checkpoint, never a torn one. Not thread-safe (the DeviceState lock guards it).
 */
final class Checkpoint {
  static final String FILE = "checkpoint.json";
  static final String API_VERSION = "checkpoint.internal.example.com/v1";

  /** One device of a prepared claim. */
  record PreparedDevice(String pool, String device, String shareId) {}

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final Path path;
  private final Map<String, List<PreparedDevice>> claims = new LinkedHashMap<>();

  private Checkpoint(Path path) {
    this.path = path;
  }

  /**
   * Reads the checkpoint at {@code path}; a missing file is an empty checkpoint.
   *
   * @throws UncheckedIOException unreadable or not a checkpoint (message names the file)
   */
  static Checkpoint read(Path path) {
    Checkpoint c = new Checkpoint(path);
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
        c.claims.put(claim.path("uid").asString(), devices);
      }
    } catch (NoSuchFileException e) {
      return c;
    } catch (IOException | RuntimeException e) {
      throw new UncheckedIOException(
          "unmarshal JSON from " + path + ": " + e.getMessage(),
          e instanceof IOException io ? io : new IOException(e));
    }
    return c;
  }

  boolean contains(String uid) {
    return claims.containsKey(uid);
  }

  Map<String, List<PreparedDevice>> claims() {
    return claims;
  }

  void put(String uid, List<PreparedDevice> devices) {
    claims.put(uid, List.copyOf(devices));
  }

  boolean remove(String uid) {
    return claims.remove(uid) != null;
  }

  /** Persists the current content atomically. */
  void write() {
    ObjectNode root = JSON.createObjectNode();
    root.put("apiVersion", API_VERSION);
    root.put("kind", "Checkpoint");
    ArrayNode list = root.putArray("preparedClaims");
    claims.forEach((uid, devices) -> {
      ObjectNode claim = list.addObject().put("uid", uid);
      ArrayNode ds = claim.putArray("devices");
      for (PreparedDevice d : devices) {
        ObjectNode dn = ds.addObject().put("pool", d.pool()).put("device", d.device());
        if (d.shareId() != null) {
          dn.put("shareID", d.shareId());
        }
      }
    });
    if (claims.isEmpty()) {
      root.remove("preparedClaims");
    }
    Path tmp = null;
    try {
      tmp = Files.createTempFile(path.getParent(), "tmp-checkpoint-", "");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(JSON.writeValueAsBytes(root)));
        ch.force(true);
      }
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("write checkpoint " + path + ": " + e.getMessage(), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // A leftover temp file is harmless: only checkpoint.json is read.
        }
      }
    }
  }
}
