package io.jdra.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Go-template subset of scheduler_perf's DRA templates. */
class GoTemplateTest {
  private static final String CLAIM_TEMPLATE =
      String.join(
          "\n",
          "{{$numRequests := (or .numRequests 1) | Int}}",
          "{{$selectors := (or .selectors nil) | JSON}}",
          "requests:{{range $numRequests}}",
          "- name: req-{{.}}",
          "  selectors: {{$selectors}}{{end}}");

  @Test
  void indexIsSubstituted() {
    assertThat(GoTemplate.render("n", "name: node-{{ .Index }}", Map.of("Index", 7)))
        .isEqualTo("name: node-7");
  }

  @Test
  void defaultsApplyWithoutParameters() {
    assertThat(GoTemplate.render("t", CLAIM_TEMPLATE, Map.of()))
        .isEqualTo("\n\nrequests:\n- name: req-0\n  selectors: null");
  }

  @Test
  void parametersOverrideDefaultsAndRangeCountsFromZero() {
    Map<String, Object> params =
        Map.of("numRequests", 2, "selectors", List.of(Map.of("cel", Map.of("expression", "x"))));
    assertThat(GoTemplate.render("t", CLAIM_TEMPLATE, params))
        .isEqualTo(
            "\n\nrequests:\n- name: req-0\n  selectors: [{\"cel\":{\"expression\":\"x\"}}]"
                + "\n- name: req-1\n  selectors: [{\"cel\":{\"expression\":\"x\"}}]");
  }

  @Test
  void unknownActionNamesTheTemplateAndTheAction() {
    assertThatThrownBy(() -> GoTemplate.render("pod.yaml", "a: {{ .Missing }}", Map.of()))
        .hasMessage("pod.yaml: template action {{.Missing}} is not supported or has no value");
  }
}
