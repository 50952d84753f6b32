package io.jdra.api.nodeaffinity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Upstream nodeaffinity semantics, case by case (names say the rule each case pins down). */
class NodeSelectorsTest {
  private static final Node NODE = node("node-1", Map.of("zone", "a", "gpus", "4", "bad", "x"));

  static NodeSelectorRequirement req(String key, String op, String... values) {
    return new NodeSelectorRequirement(key, op, Arrays.asList(values));
  }

  static NodeSelectorTerm labels(NodeSelectorRequirement... reqs) {
    return new NodeSelectorTerm(Arrays.asList(reqs), List.of());
  }

  static NodeSelectorTerm fields(NodeSelectorRequirement... reqs) {
    return new NodeSelectorTerm(List.of(), Arrays.asList(reqs));
  }

  static NodeSelector selector(NodeSelectorTerm... terms) {
    return new NodeSelector(Arrays.asList(terms));
  }

  static Node node(String name, Map<String, String> labels) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .withLabels(labels)
        .endMetadata()
        .build();
  }

  /** name, selector, whether NODE matches, parse errors ("" when it parses). */
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("In matches", selector(labels(req("zone", "In", "a", "b"))), true, ""),
        Arguments.of("In misses", selector(labels(req("zone", "In", "b"))), false, ""),
        Arguments.of("In without label", selector(labels(req("rack", "In", "a"))), false, ""),
        Arguments.of("NotIn misses", selector(labels(req("zone", "NotIn", "a"))), false, ""),
        Arguments.of("NotIn without label", selector(labels(req("rack", "NotIn", "a"))), true, ""),
        Arguments.of("Exists", selector(labels(req("zone", "Exists"))), true, ""),
        Arguments.of("DoesNotExist", selector(labels(req("zone", "DoesNotExist"))), false, ""),
        Arguments.of("Gt", selector(labels(req("gpus", "Gt", "3"))), true, ""),
        Arguments.of("Gt equal", selector(labels(req("gpus", "Gt", "4"))), false, ""),
        Arguments.of("Lt", selector(labels(req("gpus", "Lt", "5"))), true, ""),
        Arguments.of(
            "Lt on a non-integer label", selector(labels(req("bad", "Lt", "5"))), false, ""),
        Arguments.of("Gt without label", selector(labels(req("rack", "Gt", "1"))), false, ""),
        Arguments.of(
            "requirements of a term are ANDed",
            selector(labels(req("zone", "In", "a"), req("gpus", "Gt", "8"))),
            false,
            ""),
        Arguments.of(
            "terms are ORed",
            selector(labels(req("zone", "In", "b")), labels(req("gpus", "Gt", "3"))),
            true,
            ""),
        Arguments.of("an empty term matches nothing", selector(new NodeSelectorTerm()), false, ""),
        Arguments.of("no terms match nothing", selector(), false, ""),
        Arguments.of(
            "matchFields metadata.name In",
            selector(fields(req("metadata.name", "In", "node-1"))),
            true,
            ""),
        Arguments.of(
            "matchFields metadata.name NotIn",
            selector(fields(req("metadata.name", "NotIn", "node-1"))),
            false,
            ""),
        Arguments.of(
            "matchFields of another field read the empty string",
            selector(fields(req("metadata.uid", "NotIn", "node-1"))),
            true,
            ""),
        Arguments.of(
            "labels and fields of one term are ANDed",
            selector(
                new NodeSelectorTerm(
                    List.of(req("zone", "In", "a")),
                    List.of(req("metadata.name", "In", "node-2")))),
            false,
            ""),
        Arguments.of(
            "a term that does not parse is skipped, others still match",
            selector(labels(req("zone", "Foo", "a")), labels(req("zone", "In", "a"))),
            true,
            "nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: \"Foo\":"
                + " supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\","
                + " \"Lt\""),
        Arguments.of(
            "In without values",
            selector(labels(req("zone", "In"))),
            false,
            "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []:"
                + " for 'in', 'notin' operators, values set can't be empty"),
        Arguments.of(
            "Exists with values",
            selector(labels(req("zone", "Exists", "a"))),
            false,
            "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: [\"a\"]:"
                + " values set must be empty for exists and does not exist"),
        Arguments.of(
            "Gt with a non-integer",
            selector(labels(req("gpus", "Gt", "three"))),
            false,
            "nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"three\":"
                + " for 'Gt', 'Lt' operators, the value must be an integer"),
        Arguments.of(
            "matchFields with two values",
            selector(fields(req("metadata.name", "In", "node-1", "node-2"))),
            false,
            "nodeSelectorTerms[0].matchFields[0].values: Invalid value: [\"node-1\",\"node-2\"]:"
                + " must have one element"),
        Arguments.of(
            "matchFields with Exists",
            selector(fields(req("metadata.name", "Exists"))),
            false,
            "nodeSelectorTerms[0].matchFields[0].operator: Unsupported value: \"Exists\":"
                + " supported values: \"In\", \"NotIn\""),
        Arguments.of(
            "several errors print as a list",
            selector(labels(req("a", "In")), labels(req("b", "Lt"))),
            false,
            "[nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []: for 'in',"
                + " 'notin' operators, values set can't be empty,"
                + " nodeSelectorTerms[1].matchExpressions[0].values: Invalid value: []: for 'Gt',"
                + " 'Lt' operators, exactly one value is required]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void matches(String name, NodeSelector selector, boolean matches, String errors) {
    assertThat(NodeSelectors.matches(selector, NODE)).isEqualTo(matches);
    var errs = NodeSelectors.parseErrors(selector);
    assertThat(errs.isEmpty() ? "" : NodeSelectors.describe(errs)).isEqualTo(errors);
  }

  @Test
  void aNodeWithoutNameIgnoresMatchFields() {
    Node unnamed = node(null, Map.of("zone", "a"));
    NodeSelector s =
        selector(
            new NodeSelectorTerm(
                List.of(req("zone", "In", "a")), List.of(req("metadata.name", "In", "node-9"))));
    assertThat(NodeSelectors.matches(s, unnamed)).isTrue();
    assertThat(NodeSelectors.matches(s, null)).isFalse();
  }

  @Test
  void requiredNodeAffinityCombinesNodeSelectorAndAffinity() {
    Pod plain = new PodBuilder().withNewSpec().endSpec().build();
    Pod byLabel =
        new PodBuilder().withNewSpec().withNodeSelector(Map.of("zone", "a")).endSpec().build();
    Pod wrongLabel =
        new PodBuilder().withNewSpec().withNodeSelector(Map.of("zone", "b")).endSpec().build();
    Pod both =
        new PodBuilder()
            .withNewSpec()
            .withNodeSelector(Map.of("zone", "a"))
            .withNewAffinity()
            .withNewNodeAffinity()
            .withRequiredDuringSchedulingIgnoredDuringExecution(
                selector(fields(req("metadata.name", "In", "node-2"))))
            .endNodeAffinity()
            .endAffinity()
            .endSpec()
            .build();
    assertThat(NodeSelectors.requiredNodeAffinityMatches(plain, NODE)).isTrue();
    assertThat(NodeSelectors.requiredNodeAffinityMatches(byLabel, NODE)).isTrue();
    assertThat(NodeSelectors.requiredNodeAffinityMatches(wrongLabel, NODE)).isFalse();
    assertThat(NodeSelectors.requiredNodeAffinityMatches(both, NODE)).isFalse();
    assertThat(NodeSelectors.requiredNodeAffinityMatches(both, node("node-2", Map.of("zone", "a"))))
        .isTrue();
  }

  @Test
  void preferredScoreSumsTheWeightsOfMatchingTerms() {
    List<PreferredSchedulingTerm> terms =
        List.of(
            new PreferredSchedulingTerm(labels(req("zone", "In", "a")), 10),
            new PreferredSchedulingTerm(labels(req("gpus", "Gt", "2")), 5),
            new PreferredSchedulingTerm(labels(req("zone", "In", "b")), 40),
            new PreferredSchedulingTerm(labels(req("zone", "Exists")), 0),
            new PreferredSchedulingTerm(new NodeSelectorTerm(), 7));
    assertThat(NodeSelectors.preferredScore(terms, NODE)).isEqualTo(15);
    assertThat(NodeSelectors.preferredParseErrors(terms)).isEmpty();
  }

  @Test
  void preferredTermsWithWeightZeroAreNotParsed() {
    List<PreferredSchedulingTerm> terms =
        List.of(
            new PreferredSchedulingTerm(labels(req("zone", "Foo")), 0),
            new PreferredSchedulingTerm(labels(req("zone", "In")), 3));
    assertThat(NodeSelectors.describe(NodeSelectors.preferredParseErrors(terms)))
        .isEqualTo(
            "[1].matchExpressions[0].values: Invalid value: []: for 'in', 'notin' operators,"
                + " values set can't be empty");
    assertThat(NodeSelectors.preferredScore(terms, NODE)).isZero();
  }
}
