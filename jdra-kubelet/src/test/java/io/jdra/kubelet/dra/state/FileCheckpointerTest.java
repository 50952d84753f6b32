package io.jdra.kubelet.dra.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FileCheckpointerTest {
  @TempDir Path dir;

  static ClaimInfoState claim(
      String uid, String name, Set<String> pods, Map<String, DriverState> d) {
    return new ClaimInfoState(uid, name, "default", new TreeSet<>(pods), new TreeMap<>(d));
  }

  static final ClaimInfoState PREPARED =
      claim(
          "067798be-454e-4be4-9047-1aa06aea63f7",
          "example",
          Set.of("139cdb46-f989-4f17-9561-ca10cfb509a6"),
          Map.of(
              "test-driver.cdi.k8s.io",
              new DriverState(
                  List.of(
                      new Device(
                          "worker-1",
                          "dev-1",
                          null,
                          List.of("test request"),
                          List.of("example.com/example=cdi-example"))))));

  @Test
  void missingFileIsCreatedEmpty() throws Exception {
    var cp = new FileCheckpointer(dir, FileCheckpointer.DRA_MANAGER_STATE);
    assertThat(cp.getOrCreate()).isEmpty();
    assertThat(dir.resolve("dra_manager_state")).exists();
    assertThat(new FileCheckpointer(dir, "dra_manager_state").getOrCreate()).isEmpty();
  }

  @Test
  void storedStateIsReadBackByANewInstance() throws Exception {
    var shared = claim("u2", "shared", Set.of("p1", "p2"), Map.of("a", DriverState.EMPTY));
    var withShare =
        claim(
            "u3",
            "c3",
            Set.of(),
            Map.of(
                "b", new DriverState(List.of(new Device("pool", "dev", "share-1", null, null)))));
    new FileCheckpointer(dir, "dra_manager_state").store(List.of(PREPARED, shared, withShare));
    assertThat(new FileCheckpointer(dir, "dra_manager_state").getOrCreate())
        .containsExactly(PREPARED, shared, withShare);
    assertThat(dir).isDirectoryNotContaining("glob:**.tmp");
  }

  @Test
  void entriesEncodedOnceStayCorrectAcrossWrites() throws Exception {
    // Names that need escaping inside the Data string, and a multi-byte character.
    var odd =
        claim(
            "u\"1",
            "c\\\u00e9\u2603",
            Set.of("p\n"),
            Map.of("d", new DriverState(List.of(new Device("pool", "dev\t", null, null, null)))));
    var cp = new FileCheckpointer(dir, "dra_manager_state");
    cp.store(List.of(PREPARED, odd));
    // The second write reuses the first's encodings of PREPARED and odd; the changed entry
    // (a new object) is encoded anew.
    var moved = odd.withPodUids(Set.of("p\n", "p2"));
    cp.store(List.of(PREPARED, moved));
    assertThat(new FileCheckpointer(dir, "dra_manager_state").getOrCreate())
        .containsExactly(PREPARED, moved);
    cp.store(List.of(moved));
    assertThat(new FileCheckpointer(dir, "dra_manager_state").getOrCreate()).containsExactly(moved);
  }

  @Test
  void fileIsUpstreamFormat() throws Exception {
    new FileCheckpointer(dir, "dra_manager_state").store(List.of(PREPARED));
    String file = Files.readString(dir.resolve("dra_manager_state"));
    // The exact Data string a Go kubelet writes for this state; its checksum is CRC32 (IEEE).
    String data =
        "{\"kind\":\"DRACheckpoint\",\"apiVersion\":\"checkpoint.dra.kubelet.k8s.io/v1\","
            + "\"Entries\":[{\"ClaimUID\":\"067798be-454e-4be4-9047-1aa06aea63f7\","
            + "\"ClaimName\":\"example\",\"Namespace\":\"default\","
            + "\"PodUIDs\":{\"139cdb46-f989-4f17-9561-ca10cfb509a6\":{}},"
            + "\"DriverState\":{\"test-driver.cdi.k8s.io\":{\"Devices\":[{\"PoolName\":\"worker-1\","
            + "\"DeviceName\":\"dev-1\",\"RequestNames\":[\"test request\"],"
            + "\"CDIDeviceIDs\":[\"example.com/example=cdi-example\"]}]}}}]}";
    var crc = new java.util.zip.CRC32();
    crc.update(data.getBytes(StandardCharsets.UTF_8));
    assertThat(file)
        .isEqualTo(
            "{\"Data\":\""
                + data.replace("\"", "\\\"")
                + "\",\"Checksum\":"
                + crc.getValue()
                + "}");
  }

  @Test
  void readsACheckpointWrittenByUpstream() throws Exception {
    // Go's json.Marshal output for an entry without devices (nil slices are null), as in
    // upstream's state_checkpoint_test.go; fields in a different order are fine too.
    String data =
        "{\"kind\":\"DRACheckpoint\",\"apiVersion\":\"checkpoint.dra.kubelet.k8s.io/v1\",\"Entries\":"
            + "[{\"ClaimUID\":\"u1\",\"ClaimName\":\"c\",\"Namespace\":\"ns\",\"PodUIDs\":{\"p\":{}},"
            + "\"DriverState\":{\"d\":{\"Devices\":[{\"PoolName\":\"pool\",\"DeviceName\":\"dev\","
            + "\"RequestNames\":null,\"CDIDeviceIDs\":null}]}}}]}";
    Files.writeString(dir.resolve("dra_manager_state"), fileFor(data));
    assertThat(new FileCheckpointer(dir, "dra_manager_state").getOrCreate())
        .containsExactly(
            new ClaimInfoState(
                "u1",
                "c",
                "ns",
                new TreeSet<>(Set.of("p")),
                new TreeMap<>(
                    Map.of(
                        "d",
                        new DriverState(List.of(new Device("pool", "dev", null, null, null)))))));
  }

  static Stream<Arguments> corrupt() {
    String ok =
        "{\"kind\":\"DRACheckpoint\",\"apiVersion\":\"checkpoint.dra.kubelet.k8s.io/v1\",\"Entries\":[]}";
    return Stream.of(
        Arguments.of(
            "checksum mismatch",
            fileFor(ok).replace(",\"Checksum\":", ",\"Checksum\":1"),
            "checksum"),
        Arguments.of("truncated", fileFor(ok).substring(0, 20), "not valid JSON"),
        Arguments.of("not a checkpoint", "{\"version\":\"v1\",\"entries\":[]}", "no Data string"),
        Arguments.of(
            "wrong kind",
            fileFor(ok.replace("DRACheckpoint", "CPUCheckpoint")),
            "kind CPUCheckpoint"),
        Arguments.of("empty", "", "empty"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void corrupt(String name, String content, String message) throws Exception {
    Path file = dir.resolve("dra_manager_state");
    Files.writeString(file, content);
    assertThatThrownBy(() -> new FileCheckpointer(dir, "dra_manager_state").getOrCreate())
        .isInstanceOf(CorruptCheckpointException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining(message);
    // Reported, not replaced: the evidence stays for the operator.
    assertThat(Files.readString(file)).isEqualTo(content);
  }

  static String fileFor(String data) {
    var crc = new java.util.zip.CRC32();
    crc.update(data.getBytes(StandardCharsets.UTF_8));
    return "{\"Data\":\"" + data.replace("\"", "\\\"") + "\",\"Checksum\":" + crc.getValue() + "}";
  }
}
