package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jdra.runtime.bench.WatchDecodeBench;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.ValueDeserializer;

/**
 * {@link ScalarReads} against fabric8's decoding with the same mapper and without the module: the
 * objects of random JSON for every class it reads (each scalar field given every kind of value,
 * fields in random order, repeated, unknown, and the class's other properties) decode to equal
 * objects that write the same JSON, or fail alike.
 */
class ScalarReadsTest {
  private static final KubernetesSerialization FABRIC8 =
      new KubernetesSerialization(Clients.mapper(), true);
  private static final KubernetesSerialization DIRECT = Clients.serialization();
  private static final KubernetesSerialization TRIMMED = Clients.trimmedSerialization();

  /** Values of every kind for a scalar field, most of them left to the field's deserializer. */
  private static final List<String> VALUES =
      List.of(
          "\"s\"",
          "\"\"",
          "\"caf\\u00e9 \\\"q\\\"\"",
          "\"12\"",
          "\"true\"",
          "0",
          "-7",
          "2147483647",
          "2147483648",
          "-2147483649",
          "9223372036854775807",
          "9223372036854775808",
          "1.5",
          "1e3",
          "true",
          "false",
          "null",
          "{}",
          "{\"a\":1}",
          "[]",
          "[\"a\"]");

  /** Other properties of the classes read, with values of their types. */
  private static final Map<String, String> OTHERS =
      Map.of(
          "labels", "{\"a\":\"b\",\"c\":\"\"}",
          "annotations", "{\"k\":\"v\"}",
          "finalizers", "[\"f\"]",
          "ownerReferences", "[{\"kind\":\"Pod\",\"name\":\"p\",\"controller\":true}]",
          "managedFields", "[{\"manager\":\"m\",\"fieldsV1\":{\"f:a\":{}}}]",
          "containers", "[{\"name\":\"c\",\"image\":\"i\"}]",
          "conditions", "[{\"type\":\"Ready\",\"status\":\"True\"}]",
          "fieldsV1", "{\"f:x\":{}}",
          "tolerations", "[{\"key\":\"k\",\"tolerationSeconds\":3}]");

  @Test
  void everyFieldOfEveryReaderIsReadDirectlyByTheSharedMapper() {
    ObjectMapper mapper = ((ClientSerialization) DIRECT).configuredMapper();
    ScalarReads.READERS.forEach((type, reader) -> {
      ValueDeserializer<?> d =
          mapper._deserializationContext().findRootValueDeserializer(mapper.constructType(type));
      assertThat(d).as(type.getName()).isInstanceOf(ScalarReads.Direct.class);
      assertThat(((ScalarReads.Direct) d).directNames())
          .as(type.getName())
          .isEqualTo(reader.fields.keySet());
    });
  }

  @Test
  void randomObjectsOfEveryClassDecodeAsWithoutTheModule() {
    Random random = new Random(10);
    int compared = 0;
    for (var entry : ScalarReads.READERS.entrySet()) {
      List<String> names = new ArrayList<>(entry.getValue().fields.keySet());
      names.addAll(OTHERS.keySet());
      names.add("zUnknown");
      for (int i = 0; i < 400; i++) {
        String json = randomObject(random, names);
        assertSameDecoding(DIRECT, json, entry.getKey());
        compared++;
      }
    }
    assertThat(compared).isEqualTo(400 * ScalarReads.READERS.size());
  }

  @Test
  void theBenchmarksWatchEventsDecodeAsWithoutTheModule() {
    for (String event : WatchDecodeBench.steadyStatePodEvents()) {
      assertSameDecoding(DIRECT, event, WatchEvent.class);
      Object object = FABRIC8.unmarshal(event, WatchEvent.class).getObject();
      String json = FABRIC8.asJson(object);
      assertSameDecoding(DIRECT, json, object.getClass());
      assertSameDecoding(TRIMMED, json, object.getClass());
    }
  }

  @Test
  void trimmedMetadataStillSkipsManagedFields() {
    String pod =
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"managedFields\":"
            + "[{\"manager\":\"m\"}],\"generation\":3},\"spec\":{\"containers\":[]}}";
    Pod decoded = TRIMMED.unmarshal(pod, Pod.class);
    assertThat(decoded.getMetadata().getManagedFields()).isEmpty();
    assertThat(decoded.getMetadata().getGeneration()).isEqualTo(3L);
    assertThat(DIRECT.unmarshal(pod, Pod.class).getMetadata().getManagedFields()).hasSize(1);
    assertThat(TRIMMED.unmarshal(pod.replace("Pod", "ConfigMap"), ObjectMeta.class).getName())
        .isNull();
    assertThat(DIRECT.unmarshal("{\"kind\":\"ResourceClaim\"}", ResourceClaim.class)).isNotNull();
  }

  private static String randomObject(Random random, List<String> names) {
    StringBuilder b = new StringBuilder("{");
    int n = random.nextInt(8);
    for (int i = 0; i < n; i++) {
      String name = names.get(random.nextInt(names.size()));
      String value =
          OTHERS.containsKey(name) && random.nextInt(3) > 0
              ? OTHERS.get(name)
              : VALUES.get(random.nextInt(VALUES.size()));
      b.append(i == 0 ? "" : ",").append('"').append(name).append("\":").append(value);
    }
    return b.append('}').toString();
  }

  /**
   * Decoded by {@code serialization} as by fabric8's mapper without the modules, or failing alike;
   * whether it decoded.
   */
  static boolean assertSameDecoding(
      KubernetesSerialization serialization, String json, Class<?> type) {
    KubernetesSerialization reference =
        serialization == TRIMMED
            ? new KubernetesSerialization(
                Clients.mapper().rebuild().addModule(new TrimManagedFields()).build(), true)
            : FABRIC8;
    Throwable fails = catchThrowable(() -> reference.unmarshal(json, type));
    Throwable alsoFails = catchThrowable(() -> serialization.unmarshal(json, type));
    String what = type.getSimpleName() + " " + json;
    if (fails != null) {
      assertThat(alsoFails).as(what).hasSameClassAs(fails);
      assertThat(alsoFails.getCause()).as(what).hasSameClassAs(fails.getCause());
      assertThat(alsoFails.getCause()).as(what).hasMessage(fails.getCause().getMessage());
      return false;
    }
    assertThat(alsoFails).as(what).isNull();
    Object expected = reference.unmarshal(json, type);
    Object actual = serialization.unmarshal(json, type);
    // Some values decode to classes without equals (a list in an Object field) or whose equals
    // fails (a Quantity of no number): two decodings by fabric8 itself are not equal there, and
    // the string and JSON below compare them.
    if (equal(expected, reference.unmarshal(json, type))) {
      assertThat(actual).as(what).isEqualTo(expected);
    }
    assertThat(actual).as(what).hasToString(expected.toString());
    assertThat(serialization.asJson(actual)).as(what).isEqualTo(reference.asJson(expected));
    return true;
  }

  private static boolean equal(Object a, Object b) {
    try {
      return a.equals(b);
    } catch (RuntimeException e) {
      return false;
    }
  }
}
