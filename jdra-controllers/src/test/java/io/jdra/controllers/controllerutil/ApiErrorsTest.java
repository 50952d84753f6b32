package io.jdra.controllers.controllerutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {
  private static KubernetesClientException status(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).build());
  }

  @Test
  void conflictIsFoundThroughWrappingExceptions() {
    KubernetesClientException conflict = status(409, "the object has been modified");
    RuntimeException wrapped =
        new RuntimeException("update status of claim ns/c: the object has been modified", conflict);

    assertThat(ApiErrors.isConflict(conflict)).isTrue();
    assertThat(ApiErrors.isConflict(new IllegalStateException("sync", wrapped))).isTrue();
  }

  @Test
  void otherErrorsAreNoConflict() {
    assertThat(ApiErrors.isConflict(status(404, "not found"))).isFalse();
    assertThat(ApiErrors.isConflict(new RuntimeException("x", status(500, "boom")))).isFalse();
    assertThat(ApiErrors.isConflict(new RuntimeException("no cause"))).isFalse();
  }

  @Test
  void messageIsTheServersStatusMessage() {
    assertThat(ApiErrors.message(status(409, "the object has been modified")))
        .isEqualTo("the object has been modified");
    assertThat(ApiErrors.message(new RuntimeException("plain"))).isEqualTo("plain");
  }
}
