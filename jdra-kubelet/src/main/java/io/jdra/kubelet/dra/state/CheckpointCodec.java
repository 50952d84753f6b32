package io.jdra.kubelet.dra.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstream's checkpoint format (pkg/kubelet/cm/dra/state/checkpoint.go), byte-compatible in
 * structure: the file is {@code {"Data":"<json>","Checksum":<crc32>}} where the checksum is CRC32
 * (IEEE) over the UTF-8 bytes of {@code Data}, and {@code Data} is {@code {"kind":"DRACheckpoint",
 * "apiVersion":"checkpoint.dra.kubelet.k8s.io/v1","Entries":[...]}} with Go's field names. Keeping
 * the checksum over the serialized string (not over a re-serialization) is what lets a kubelet read
 * a checkpoint written by another implementation.
 */
public final class CheckpointCodec {
  public static final String KIND = "DRACheckpoint";
  public static final String API_VERSION = "checkpoint.dra.kubelet.k8s.io/v1";

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private CheckpointCodec() {}

  /**
   * One entry's part of the file, encoded once and reused by every later write that still contains
   * the entry unchanged: its JSON (what the checksum covers) and the same JSON escaped as part of
   * the {@code Data} string. JSON string escaping works character by character, so the escaped
   * {@code Data} is the concatenation of its pieces escaped.
   */
  public record Entry(byte[] json, byte[] escaped) {}

  private static final byte[] DATA_HEAD =
      ("{\"kind\":\"" + KIND + "\",\"apiVersion\":\"" + API_VERSION + "\",\"Entries\":[")
          .getBytes(StandardCharsets.UTF_8);
  private static final byte[] ESCAPED_HEAD = escape(DATA_HEAD);
  private static final byte[] DATA_TAIL = "]}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] COMMA = ",".getBytes(StandardCharsets.UTF_8);
  private static final byte[] FILE_HEAD = "{\"Data\":\"".getBytes(StandardCharsets.UTF_8);

  /** The file content for {@code entries}. */
  public static byte[] encode(List<ClaimInfoState> entries) {
    return assemble(entries.stream().map(CheckpointCodec::encodeEntry).toList());
  }

  /** Encodes one entry (see {@link Entry}). */
  public static Entry encodeEntry(ClaimInfoState e) {
    byte[] json = JSON.writeValueAsBytes(entryNode(e));
    return new Entry(json, escape(json));
  }

  /**
   * The file content for entries encoded by {@link #encodeEntry}: {@code {"Data":"<escaped
   * data>","Checksum":<crc32 of data>}} without serializing anything again.
   */
  public static byte[] assemble(List<Entry> entries) {
    ByteBuffer out = ByteBuffer.allocate(assembledSize(entries));
    assemble(entries, out);
    return Arrays.copyOf(out.array(), out.position());
  }

  /**
   * Puts the file content for {@code entries} into {@code out}, which must have {@link
   * #assembledSize} bytes left (a buffer reused from write to write allocates nothing).
   */
  public static void assemble(List<Entry> entries, ByteBuffer out) {
    CRC32 crc = new CRC32();
    out.put(FILE_HEAD);
    out.put(ESCAPED_HEAD);
    crc.update(DATA_HEAD);
    for (int i = 0; i < entries.size(); i++) {
      if (i > 0) {
        out.put(COMMA);
        crc.update(COMMA);
      }
      out.put(entries.get(i).escaped());
      crc.update(entries.get(i).json());
    }
    out.put(DATA_TAIL);
    crc.update(DATA_TAIL);
    out.put(("\",\"Checksum\":" + crc.getValue() + "}").getBytes(StandardCharsets.UTF_8));
  }

  /** An upper bound of the file size for {@code entries} (the checksum's digits vary). */
  public static int assembledSize(List<Entry> entries) {
    int n = 64 + FILE_HEAD.length + ESCAPED_HEAD.length + DATA_TAIL.length;
    for (Entry e : entries) {
      n += e.escaped().length + 1;
    }
    return n;
  }

  /** The bytes of {@code json} as the inside of a JSON string (Jackson's escaping). */
  private static byte[] escape(byte[] json) {
    String quoted = JSON.writeValueAsString(new String(json, StandardCharsets.UTF_8));
    return quoted.substring(1, quoted.length() - 1).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The entries of a checkpoint file.
   *
   * @throws CorruptCheckpointException when the file is not JSON, the checksum does not match, or
   *     the data is not a {@value #KIND} of {@value #API_VERSION}
   */
  public static List<ClaimInfoState> decode(byte[] file) throws CorruptCheckpointException {
    if (file.length == 0) {
      throw new CorruptCheckpointException("checkpoint file is empty");
    }
    JsonNode root;
    try {
      root = JSON.readTree(file);
    } catch (JacksonException e) {
      throw new CorruptCheckpointException(
          "checkpoint is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.path("Data").isString() || !root.path("Checksum").isNumber()) {
      throw new CorruptCheckpointException("checkpoint has no Data string and Checksum number");
    }
    String data = root.get("Data").asString();
    long expected = checksum(data);
    long actual = root.get("Checksum").asLong();
    if (expected != actual) {
      throw new CorruptCheckpointException(
          "checkpoint is corrupted: checksum "
              + actual
              + " does not match data (expected "
              + expected
              + ")");
    }
    return entries(data);
  }

  static long checksum(String data) {
    CRC32 crc = new CRC32();
    crc.update(data.getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  private static ObjectNode entryNode(ClaimInfoState e) {
    ObjectNode n = NODES.objectNode();
    n.put("ClaimUID", e.claimUid());
    n.put("ClaimName", e.claimName());
    n.put("Namespace", e.namespace());
    // sets.Set[string] is a map to empty structs in Go's JSON.
    ObjectNode pods = n.putObject("PodUIDs");
    e.podUids().forEach(uid -> pods.putObject(uid));
    ObjectNode drivers = n.putObject("DriverState");
    e.driverState().forEach((driver, state) -> drivers.set(driver, driverNode(state)));
    return n;
  }

  private static ObjectNode driverNode(DriverState state) {
    ObjectNode n = NODES.objectNode();
    ArrayNode devices = n.putArray("Devices");
    for (Device d : state.devices()) {
      ObjectNode dn = devices.addObject();
      dn.put("PoolName", d.poolName());
      dn.put("DeviceName", d.deviceName());
      if (d.shareId() != null) {
        dn.put("ShareID", d.shareId());
      }
      d.requestNames().forEach(dn.putArray("RequestNames")::add);
      d.cdiDeviceIds().forEach(dn.putArray("CDIDeviceIDs")::add);
    }
    return n;
  }

  private static List<ClaimInfoState> entries(String data) throws CorruptCheckpointException {
    JsonNode root;
    try {
      root = JSON.readTree(data);
    } catch (JacksonException e) {
      throw new CorruptCheckpointException(
          "checkpoint Data is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (!KIND.equals(root.path("kind").asString(""))
        || !API_VERSION.equals(root.path("apiVersion").asString(""))) {
      throw new CorruptCheckpointException(
          "checkpoint Data has kind "
              + root.path("kind").asString("")
              + " apiVersion "
              + root.path("apiVersion").asString("")
              + ", want "
              + KIND
              + " "
              + API_VERSION);
    }
    List<ClaimInfoState> out = new ArrayList<>();
    for (JsonNode n : root.path("Entries")) {
      TreeSet<String> pods = new TreeSet<>();
      n.path("PodUIDs").propertyNames().forEach(pods::add);
      Map<String, DriverState> drivers = new TreeMap<>();
      for (Map.Entry<String, JsonNode> d : n.path("DriverState").properties()) {
        drivers.put(d.getKey(), driverState(d.getValue()));
      }
      out.add(
          new ClaimInfoState(
              n.path("ClaimUID").asString(""),
              n.path("ClaimName").asString(""),
              n.path("Namespace").asString(""),
              pods,
              new TreeMap<>(drivers)));
    }
    return out;
  }

  private static DriverState driverState(JsonNode n) {
    List<Device> devices = new ArrayList<>();
    for (JsonNode d : n.path("Devices")) {
      devices.add(
          new Device(
              d.path("PoolName").asString(""),
              d.path("DeviceName").asString(""),
              d.hasNonNull("ShareID") ? d.get("ShareID").asString() : null,
              strings(d.path("RequestNames")),
              strings(d.path("CDIDeviceIDs"))));
    }
    return new DriverState(devices);
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(v -> out.add(v.asString()));
    return out;
  }
}
