package io.jdra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code jdra allocate} end to end: files in, claims or explanations out, exit codes. */
class AllocateCommandTest {
  record Result(int code, String out, String err) {}

  @TempDir Path tmp;

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  static Path examples() {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples/allocate"))) {
      dir = dir.getParent();
    }
    assumeTrue(dir != null, "examples/allocate not found above the working directory");
    return dir.resolve("examples/allocate");
  }

  static Result example(String file, String... more) {
    Path ex = examples();
    List<String> args =
        new ArrayList<>(List.of("allocate", "-f", ex.resolve("cluster.yaml").toString()));
    args.add("-f");
    args.add(ex.resolve(file).toString());
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  static Stream<Arguments> successes() {
    return Stream.of(
        Arguments.of("one-gpu.yaml", List.of("device: gpu-0", "request: gpu", "name: single-gpu")),
        Arguments.of(
            "same-numa-pair.yaml", List.of("device: gpu-1", "device: gpu-3", "name: numa-pair")),
        Arguments.of("prioritized.yaml", List.of("request: gpu/one", "device: gpu-0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("successes")
  void examplesAllocate(String file, List<String> expected) {
    Result r = example(file);
    assertThat(r.code()).as(r.err()).isZero();
    for (String e : expected) {
      assertThat(r.out()).contains(e);
    }
    assertThat(r.out()).contains("kind: ResourceClaim").contains("allocation:");
    assertThat(r.out()).doesNotContain("name: already-running");
  }

  @Test
  void unschedulableExampleExplainsWithExitTwo() {
    Result r = example("unschedulable.yaml");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .contains("cannot allocate all claims on node node-1")
        .contains("claim default/too-many-gpus:")
        .contains("request gpus: needs 5 devices, only 3 usable")
        .contains("1 request selector false");
  }

  @Test
  void draGateOffIsAnError() {
    Result r = example("one-gpu.yaml", "--feature-gates", "DynamicResourceAllocation=false");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("feature gate DynamicResourceAllocation is off");
  }

  @Test
  void jsonOutput() {
    Result r = example("one-gpu.yaml", "-o", "json");
    assertThat(r.code()).isZero();
    assertThat(r.out().strip()).startsWith("{").endsWith("}").contains("\"device\" : \"gpu-0\"");
  }

  @Test
  void nodeFlagAloneMeansNodeWithoutLabels() throws IOException {
    Path f =
        write(
            """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: c}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: s}
            spec:
              driver: d.example.com
              nodeName: n1
              pool: {name: n1, generation: 1, resourceSliceCount: 1}
              devices: [{name: dev-0}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: claim, namespace: ns}
            spec:
              devices:
                requests: [{name: r, exactly: {deviceClassName: c}}]
            """);
    Result ok = run("allocate", "-f", f.toString(), "--node", "n1");
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(ok.out()).contains("device: dev-0");
    Result other = run("allocate", "-f", f.toString(), "--node", "n2");
    assertThat(other.code()).isEqualTo(2);
    assertThat(other.err()).contains("1 node does not match");
  }

  @Test
  void unknownClassIsAnErrorWithExitOne() throws IOException {
    Path f =
        write(
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: claim, namespace: ns}
            spec:
              devices:
                requests: [{name: r, exactly: {deviceClassName: nope}}]
            """);
    Result r = run("allocate", "-f", f.toString(), "--node", "n1");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().strip())
        .isEqualTo(
            "error: claim ns/claim, request r: could not retrieve device class nope:"
                + " deviceclass.resource.k8s.io \"nope\" not found");
  }

  @Test
  void badInputNamesFileAndDocument() throws IOException {
    Path f = write("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
    Result r = run("allocate", "-f", f.toString(), "--node", "n1");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("ConfigMap x (" + f + ", document 1): unsupported kind");
    Result missing = run("allocate", "-f", tmp.resolve("nope.yaml").toString(), "--node", "n1");
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).contains("no such file");
  }

  @Test
  void validateStopsAtTheFirstInvalidObject() throws IOException {
    Path f =
        write(
            """
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: claim, namespace: ns}
            spec:
              devices:
                requests: [{name: Bad_Name, exactly: {deviceClassName: c}}]
            """);
    Result r = run("allocate", "--validate", "-f", f.toString(), "--node", "n1");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err())
        .contains("ResourceClaim.resource.k8s.io \"claim\" is invalid")
        .contains("spec.devices.requests[0].name: Invalid value: \"Bad_Name\"");
  }

  @Test
  void jsonListInputAndTaintRulesBehindTheirGate() throws IOException {
    Path f =
        write(
            """
            {"apiVersion": "v1", "kind": "List", "items": [
              {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "c"}},
              {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"},
               "spec": {"driver": "d.example.com", "nodeName": "n1",
                        "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
                        "devices": [{"name": "dev-0"}, {"name": "dev-1"}]}},
              {"apiVersion": "resource.k8s.io/v1beta2", "kind": "DeviceTaintRule", "metadata": {"name": "t"},
               "spec": {"deviceSelector": {"device": "dev-0"},
                        "taint": {"key": "maintenance", "effect": "NoSchedule"}}},
              {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
               "metadata": {"name": "claim", "namespace": "ns"},
               "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "c"}}]}}}
            ]}
            """);
    Result off = run("allocate", "-f", f.toString(), "--node", "n1");
    assertThat(off.code()).as(off.err()).isZero();
    assertThat(off.out()).contains("device: dev-0");
    assertThat(off.err())
        .contains("ignoring 1 DeviceTaintRule(s): feature gate DRADeviceTaintRules is off");
    Result on =
        run(
            "allocate",
            "-f",
            f.toString(),
            "--node",
            "n1",
            "--feature-gates",
            "DRADeviceTaintRules=true");
    assertThat(on.code()).as(on.err()).isZero();
    assertThat(on.out()).contains("device: dev-1");
  }

  @Test
  void claimsAlreadyAllocatedAreInUseAndNotPrinted() throws IOException {
    Path f =
        write(
            """
            apiVersion: resource.k8s.io/v1
            kind: DeviceClass
            metadata: {name: c}
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceSlice
            metadata: {name: s}
            spec:
              driver: d.example.com
              nodeName: n1
              pool: {name: n1, generation: 1, resourceSliceCount: 1}
              devices: [{name: dev-0}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: old, namespace: ns}
            spec:
              devices:
                requests: [{name: r, exactly: {deviceClassName: c}}]
            status:
              allocation:
                devices:
                  results: [{request: r, driver: d.example.com, pool: n1, device: dev-0}]
            ---
            apiVersion: resource.k8s.io/v1
            kind: ResourceClaim
            metadata: {name: new, namespace: ns}
            spec:
              devices:
                requests: [{name: r, exactly: {deviceClassName: c}}]
            """);
    Result r = run("allocate", "-f", f.toString(), "--node", "n1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("claim ns/new:").contains("1 already allocated");
  }

  static final String CLASS_AND_SLICE =
      """
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata: {name: c}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: s}
      spec:
        driver: d.example.com
        nodeName: n1
        pool: {name: n1, generation: 1, resourceSliceCount: 1}
        devices: [{name: dev-0}]
      """;

  static final String ALLOCATED_CLAIM =
      """
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata: {name: old, namespace: ns}
      spec:
        devices:
          requests: [{name: r, exactly: {deviceClassName: c}}]
      status:
        allocation:
          devices:
            results: [{request: r, driver: d.example.com, pool: n1, device: dev-0}]
      """;

  /** name, input, output format, stdout, the note on stderr. */
  static Stream<Arguments> nothingToAllocate() {
    String noClaim = "note: nothing to allocate: the input has no ResourceClaim\n";
    String allAllocated =
        "note: nothing to allocate: every ResourceClaim in the input has status.allocation\n";
    String emptyList =
        """
        {
          "apiVersion" : "v1",
          "kind" : "List",
          "items" : [ ]
        }
        """;
    return Stream.of(
        Arguments.of("no claim, yaml", CLASS_AND_SLICE, "yaml", "", noClaim),
        Arguments.of("no claim, json", CLASS_AND_SLICE, "json", emptyList, noClaim),
        Arguments.of("no object at all", "", "yaml", "", noClaim),
        Arguments.of(
            "all allocated, yaml", CLASS_AND_SLICE + ALLOCATED_CLAIM, "yaml", "", allAllocated),
        Arguments.of(
            "all allocated, json",
            CLASS_AND_SLICE + ALLOCATED_CLAIM,
            "json",
            emptyList,
            allAllocated));
  }

  /** Upstream's allocator gives an empty result for no claims; scripts feed any cluster state. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("nothingToAllocate")
  void nothingToAllocateSucceeds(String name, String input, String format, String out, String err)
      throws IOException {
    Result r = run("allocate", "-f", write(input).toString(), "--node", "n1", "-o", format);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(out);
    assertThat(r.err()).isEqualTo(err);
  }

  private Path write(String yaml) throws IOException {
    Path f = Files.createTempFile(tmp, "in", ".yaml");
    Files.writeString(f, yaml);
    return f;
  }
}
