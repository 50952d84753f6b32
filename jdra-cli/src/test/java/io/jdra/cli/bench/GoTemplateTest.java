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
        .hasMessage("pod.yaml: template action {{.Missing}} has no value");
  }

  @Test
  void scheduler_perfFunctionsAndPipelines() {
    String slice =
        String.join(
            "\n",
            "{{$n := or .numDevices 3}}",
            "{{- range ($n | Int)}}",
            "- d{{.}} root {{ModInt . 2}} claim {{DivideInt $.Index 5}}{{end}}");
    assertThat(GoTemplate.render("s", slice, Map.of("Index", 12)))
        .isEqualTo("\n- d0 root 0 claim 2\n- d1 root 1 claim 2\n- d2 root 0 claim 2");
  }

  @Test
  void ifElseAndTrimMarkers() {
    String t = "a: {{- if .x }} yes {{- else }} no {{- end }}";
    assertThat(GoTemplate.render("t", t, Map.of("x", true))).isEqualTo("a: yes");
    assertThat(GoTemplate.render("t", t, Map.of())).isEqualTo("a: no");
  }

  @Test
  void unknownFunctionIsAnError() {
    assertThatThrownBy(() -> GoTemplate.render("t", "{{ printf \"%d\" 1 }}", Map.of()))
        .hasMessage("t: template action {{printf \"%d\" 1}}: function printf is not supported");
  }

  @Test
  void unclosedRangeIsAnError() {
    assertThatThrownBy(() -> GoTemplate.render("t", "{{range 3}}x", Map.of()))
        .hasMessage("t: {{range 3}} without {{end}}");
  }
}
