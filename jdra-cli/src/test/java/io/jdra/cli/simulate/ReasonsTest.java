package io.jdra.cli.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.allocator.Explanation;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The allocator's explanation of one node, reduced to a reason that groups across nodes. */
class ReasonsTest {
  static Explanation node(Map<String, Integer> rejected, String verdict, List<String> notes) {
    return new Explanation(
        "n-1",
        List.of(
            new Explanation.ClaimReport(
                "default/job-0-gpu-bbbbb",
                List.of(new Explanation.RequestReport("gpu", "4", 32, 1, rejected, verdict)),
                notes)),
        List.of());
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "busy: other nodes' devices left out",
            node(
                Map.of("already allocated", 7, "node does not match", 24),
                "needs 4 devices, only 1 usable",
                List.of()),
            "claim gpu request gpu: needs 4 devices, too few usable (rejected: already allocated)"),
        Arguments.of(
            "busy wins over devices the request does not select",
            node(
                Map.of(
                    "request selector false", 4, "counters exhausted", 2, "already allocated", 1),
                "needs 4 devices, only 1 usable",
                List.of()),
            "claim gpu request gpu: needs 4 devices, too few usable (rejected: already allocated,"
                + " counters exhausted)"),
        Arguments.of(
            "only a mismatch: that is the answer",
            node(
                Map.of("request selector false", 8, "node does not match", 24),
                "needs 4 devices, only 0 usable",
                List.of()),
            "claim gpu request gpu: needs 4 devices, too few usable (rejected: request selector"
                + " false)"),
        Arguments.of(
            "devices only elsewhere",
            node(Map.of("node does not match", 24), "needs 4 devices, only 0 usable", List.of()),
            "claim gpu request gpu: needs 4 devices, too few usable (rejected: node does not"
                + " match)"),
        Arguments.of(
            "request fits alone: the claim's note, counts left out",
            node(
                Map.of(),
                "enough usable devices on its own (8 for 4)",
                List.of("its requests need 6 devices together, but only 5 different devices")),
            "claim gpu: its requests need N devices together, but only N different devices"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reason(String name, Explanation e, String expected) {
    assertThat(Reasons.dra(e, key -> key.equals("default/job-0-gpu-bbbbb") ? "gpu" : key))
        .isEqualTo(expected);
  }
}
