package io.jdra.kubeletplugin.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CdiWriterTest {
  @TempDir Path dir;

  @Test
  void writesSortedYamlAtomicallyAndRemoves() throws Exception {
    CdiWriter w = new CdiWriter(dir);
    CdiSpec spec =
        CdiSpec.of(
            "k8s.gpu.example.com/gpu",
            List.of(
                new CdiSpec.Device(
                    "common", CdiSpec.ContainerEdits.env(List.of("A=1", "B=two words")))));
    Path file = w.writeSpec(spec, CdiNames.transientSpecName(spec, "common"));

    assertThat(file.getFileName().toString()).isEqualTo("k8s.gpu.example.com-gpu_common.yaml");
    assertThat(Files.readString(file))
        .isEqualTo(
            """
            cdiVersion: 0.3.0
            containerEdits: {}
            devices:
            - containerEdits:
                env:
                - A=1
                - B=two words
              name: common
            kind: k8s.gpu.example.com/gpu
            """);
    try (var files = Files.list(dir)) {
      assertThat(files).hasSize(1);
    }
    w.removeSpec("k8s.gpu.example.com-gpu_common");
    assertThat(file).doesNotExist();
    w.removeSpec("k8s.gpu.example.com-gpu_common");
  }

  @Test
  void minimumVersionFollowsTheContent() {
    assertThat(CdiSpec.of("v.com/c", List.of(new CdiSpec.Device("1234-gpu-0", null))).cdiVersion())
        .isEqualTo("0.5.0");
    assertThat(CdiSpec.of("v.com/c.d", List.of()).cdiVersion()).isEqualTo("0.6.0");
    assertThat(CdiSpec.of("v.com/c", List.of(new CdiSpec.Device("d", null))).cdiVersion())
        .isEqualTo("0.3.0");
  }

  @Test
  void invalidSpecsAreRefusedBeforeAnythingIsWritten() throws Exception {
    CdiWriter w = new CdiWriter(dir);
    assertThatThrownBy(() -> w.writeSpec(CdiSpec.of("novendor", List.of()), "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CDI kind \"novendor\": want vendor/class");
    assertThatThrownBy(() ->
            w.writeSpec(CdiSpec.of("v.com/c", List.of(new CdiSpec.Device("bad name", null))), "x"))
        .hasMessageStartingWith("CDI device name \"bad name\"");
    assertThatThrownBy(() ->
            w.writeSpec(
                CdiSpec.of(
                    "v.com/c",
                    List.of(
                        new CdiSpec.Device("d", CdiSpec.ContainerEdits.env(List.of("NOVALUE"))))),
                "x"))
        .hasMessage("CDI device d: env entry \"NOVALUE\" is not KEY=value");
    assertThatThrownBy(() -> w.writeSpec(CdiSpec.of("v.com/c", List.of()), "../escape"))
        .hasMessage("CDI spec name \"../escape\": not a file name");
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }
}
