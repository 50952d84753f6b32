package io.jdra.kubeletplugin.cdi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import tools.jackson.dataformat.yaml.YAMLMapper;

class CdiYamlTest {
  private static final List<String> AWKWARD =
      List.of(
          "",
          " lead",
          "trail ",
          "true",
          "No",
          "null",
          "~",
          "123",
          "-1.5e3",
          "0x1F",
          ".inf",
          "1:20",
          "a: b",
          "key:",
          "- dash",
          "#comment",
          "x #y",
          "quote\"d",
          "back\\slash",
          "multi\nline",
          "tab\there",
          "{braces}",
          "*alias",
          "&anchor",
          "!tag",
          "%dir",
          "@at",
          "'single'",
          "unicode é");

  @Test
  void everyStringReadsBackAsItself() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("list", AWKWARD);
    tree.put("map", Map.of("k", "v"));
    String yaml = CdiYaml.render(tree);
    Map<?, ?> back = YAMLMapper.builder().build().readValue(yaml, Map.class);
    assertThat(back.get("list")).isEqualTo(AWKWARD);
  }

  @Test
  void ordinaryValuesStayPlain() {
    for (String s :
        List.of(
            "GPU_DEVICE_0_RESOURCE_CLAIM=4f1c2a",
            "DRA_ADMIN_ACCESS=false",
            "k8s.gpu.example.com/gpu",
            "0.3.0",
            "4f1c2a9e-1b2c-4d5e-8f90-123456789abc-gpu-0",
            "/dev/null",
            "B=two words")) {
      assertThat(CdiYaml.plain(s)).as(s).isTrue();
    }
    for (String s : AWKWARD) {
      assertThat(CdiYaml.plain(s)).as(s).isFalse();
    }
  }

  @Test
  void emptyAndNestedCollections() {
    Map<String, Object> tree = new TreeMap<>();
    tree.put("a", Map.of());
    tree.put("b", List.of());
    tree.put("c", List.of(Map.of("x", List.of("1")), Map.of()));
    assertThat(CdiYaml.render(tree))
        .isEqualTo(
            """
            a: {}
            b: []
            c:
            - x:
              - "1"
            - {}
            """);
  }
}
