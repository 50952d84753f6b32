package io.jdra.runtime.logging;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LoggerTest {
  @AfterEach
  void resetVerbosity() {
    Verbosity.set(0);
  }

  @Test
  void vLevelsAreEnabledByTheProcessVerbosity() {
    Logger l = Logger.named("test");
    Verbosity.set(2);
    assertThat(Verbosity.enabled(2)).isTrue();
    assertThat(Verbosity.enabled(3)).isFalse();
    assertThat(l.v(3).enabled()).isFalse();
    assertThat(Logger.discard().v(0).enabled()).isFalse();
  }

  @Test
  void namesNestAndValuesDoNotChangeTheParent() {
    Logger l = Logger.named("controller").withName("resourceclaim");
    assertThat(l.name()).isEqualTo("controller/resourceclaim");
    Logger child = l.withValues("pod", "ns/p");
    assertThat(child).isNotSameAs(l);
    child.info("Message with an odd key list", "dangling");
  }

  @Test
  void aRepeatedKeyIsWrittenOnceWithItsLastValue() {
    assertThat(Logger.merge(List.of("node", "n1", "pod", "p"), new Object[] {"node", "n2", "x", 1}))
        .containsExactly("node", "n2", "pod", "p", "x", 1);
    assertThat(Logger.merge(List.of("node", "n1"), new Object[] {"node"}))
        .containsExactly("node", "n1", "node");
    assertThat(Logger.merge(List.of(), new Object[] {"a", 1, "a", 2})).containsExactly("a", 2);
  }

  @Test
  void kobjRendersNamespaceSlashName() {
    var pod = new PodBuilder().withNewMetadata().withNamespace("ns").withName("p").endMetadata();
    assertThat(Klog.kobj(pod.build())).hasToString("ns/p");
    assertThat(Klog.kref("", "node-1")).hasToString("node-1");
    assertThat(Klog.kobj(null)).hasToString("");
  }
}
