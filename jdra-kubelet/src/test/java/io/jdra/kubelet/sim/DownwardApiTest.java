package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DownwardApiTest {
  private static final Pod POD =
      new PodBuilder()
          .withNewMetadata()
          .withName("pi-2-x7k2p")
          .withNamespace("jobs")
          .withUid("u-1")
          .addToLabels("app", "pi")
          .addToAnnotations("batch.kubernetes.io/job-completion-index", "2")
          .endMetadata()
          .withNewSpec()
          .withNodeName("node-1")
          .endSpec()
          .build();

  @ParameterizedTest(name = "{0} -> ''{1}''")
  @CsvSource(
      quoteCharacter = '"',
      value = {
        "metadata.annotations['batch.kubernetes.io/job-completion-index'], 2",
        "metadata.labels['app'], pi",
        "metadata.labels['missing'], \"\"",
        "metadata.annotations['missing'], \"\"",
        "metadata.name, pi-2-x7k2p",
        "metadata.namespace, jobs",
        "metadata.uid, u-1",
        "spec.nodeName, node-1",
        "spec.serviceAccountName, \"\"",
        "status.podIP, 10.244.1.7",
        "status.hostIP, 192.168.0.11",
        "metadata.labels[''], \"\"",
        "metadata.labels, \"\"",
        "spec.unknown, \"\"",
      })
  void resolvesFieldPaths(String path, String expected) {
    assertThat(DownwardApi.value(POD, path, "10.244.1.7", "192.168.0.11")).isEqualTo(expected);
  }
}
