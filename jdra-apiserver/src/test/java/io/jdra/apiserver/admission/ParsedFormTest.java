package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in admission leaves a created pod as parsing its serialization gives it (defaulted
 * integers in the parser's classes), so that the registry shares the stored tree with the pod's
 * next write instead of copying it.
 */
class ParsedFormTest {
  private static final ResourceType PODS =
      ResourceRegistry.builtIn().find("", "v1", "pods").orElseThrow();

  @Test
  void aDefaultedPodParsesBackAlike() {
    ObjectNode pod =
        Json.parseObject(
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},
             "spec":{"containers":[{"name":"c","image":"i",
               "livenessProbe":{"httpGet":{"port":80}},
               "ports":[{"containerPort":80}]}],
              "volumes":[{"name":"v","secret":{"secretName":"s"}},
                {"name":"p","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}}]}}
            """
                .getBytes(StandardCharsets.UTF_8));
    BuiltInAdmission admission = new BuiltInAdmission(FeatureGates.defaults(), Clock.systemUTC());

    assertThat(
            admission.admit(
                new Admission.Request(
                    Admission.Operation.CREATE, PODS, "", pod, null, ns -> Map.of())))
        .isEmpty();

    // the defaults were written (so the check below covers them) ...
    assertThat(pod.at("/spec/terminationGracePeriodSeconds").asInt()).isEqualTo(30);
    assertThat(pod.at("/spec/tolerations/0/tolerationSeconds").asInt()).isEqualTo(300);
    assertThat(pod.at("/spec/priority").asInt()).isZero();
    assertThat(pod.at("/spec/containers/0/livenessProbe/periodSeconds").asInt()).isEqualTo(10);
    assertThat(pod.at("/spec/volumes/0/secret/defaultMode").asInt()).isEqualTo(420);
    assertThat(
            pod.at("/spec/volumes/1/projected/sources/0/serviceAccountToken/expirationSeconds")
                .asInt())
        .isEqualTo(3600);
    // ... in the classes parsing gives
    assertThat(Json.written(pod).asParsed()).isTrue();
  }
}
