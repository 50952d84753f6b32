package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The built-in descriptions of upstream's templates create the same objects as upstream's files,
 * for every template the upstream copy on this machine has, with and without parameters.
 */
class BuiltinTemplatesTest {
  private static final String DRA =
      "shared/upstream-dra/examples/kubernetes/test/integration/scheduler_perf/dra";

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "templates/node-with-dra-test-driver.yaml",
        "templates/deviceclass.yaml",
        "templates/pod-with-claim-template.yaml",
        "templates/resourceclaimtemplate.yaml"
      })
  void sameObjectsAsUpstreamsTemplate(String path) {
    Path dir = upstream();
    assumeTrue(dir != null && Files.isRegularFile(dir.resolve(path)), "no upstream copy");
    Templates upstream = new Templates(new PerfConfig("upstream", dir, List.of()));
    Templates builtin = new Templates(new PerfConfig(BuiltinCases.SOURCE, null, List.of()));
    Map<String, Object> plain = Map.of("Index", 7);
    Map<String, Object> params =
        Map.of(
            "Index",
            3,
            "numRequests",
            2,
            "selectors",
            List.of(Map.of("cel", Map.of("expression", "true"))),
            "constraints",
            List.of(Map.of("matchAttribute", "resource.kubernetes.io/pciRoot")));

    for (Map<String, Object> p : List.of(plain, params)) {
      assertThat(withoutNulls(builtin.render(path, p, Map.class)))
          .as("%s with %s", path, p)
          .isEqualTo(withoutNulls(upstream.render(path, p, Map.class)));
    }
  }

  // A field set to null (upstream's "selectors: null") is the same object as a missing one.
  private static Object withoutNulls(Object o) {
    if (o instanceof Map<?, ?> m) {
      Map<Object, Object> out = new java.util.LinkedHashMap<>();
      m.forEach((k, v) -> {
        if (v != null) {
          out.put(k, withoutNulls(v));
        }
      });
      return out;
    }
    if (o instanceof List<?> l) {
      return l.stream().map(BuiltinTemplatesTest::withoutNulls).toList();
    }
    return o;
  }

  private static Path upstream() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve(DRA))) {
        return p.resolve(DRA);
      }
    }
    return null;
  }
}
