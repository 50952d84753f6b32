package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.runtime.bench.WatchDecodeBench;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.bean.BeanDeserializerBase;

/**
 * {@link CompiledSetters}: the properties of the model classes are set through the compiled call,
 * inside fabric8's own wrappers; random objects of the classes the clients decode (every property
 * given values of its type and of other types, nested objects, lists and maps, nulls, unknown
 * names) decode to what fabric8's mapper without the modules gives, or fail alike.
 */
class CompiledSettersTest {
  private static final List<Class<?>> CLASSES =
      List.of(
          Pod.class,
          ResourceClaim.class,
          ResourceClaimTemplate.class,
          ResourceSlice.class,
          DeviceClass.class,
          Node.class,
          io.fabric8.kubernetes.api.model.Event.class,
          io.fabric8.kubernetes.api.model.events.v1.Event.class);

  /** Values that are of no property's type, or of many. */
  private static final List<String> ODD =
      List.of("null", "\"s\"", "\"\"", "7", "-1", "1.5", "true", "{}", "[]", "{\"a\":\"b\"}");

  private static final DeserializationContext CTXT =
      ((ClientSerialization) Clients.sharedSerialization())
          .configuredMapper()
          ._deserializationContext();

  @Test
  void theModelsPropertiesAreSetByTheCompiledCallInsideFabric8sWrappers() {
    int compiled = 0;
    for (Class<?> type :
        List.of(
            Pod.class,
            PodSpec.class,
            PodStatus.class,
            Container.class,
            ObjectMeta.class,
            ResourceClaim.class,
            ResourceClaimStatus.class,
            WatchEvent.class)) {
      for (Iterator<SettableBeanProperty> it = bean(type).properties(); it.hasNext(); ) {
        SettableBeanProperty p = it.next();
        String what = type.getSimpleName() + "." + p.getName();
        assertThat(p.getClass().getName()).as(what).startsWith("io.fabric8.");
        assertThat(((SettableBeanProperty.Delegating) p).getDelegate())
            .as(what)
            .isInstanceOf(CompiledSetters.Compiled.class);
        compiled++;
      }
    }
    assertThat(compiled).isGreaterThan(100);
  }

  @Test
  void randomObjectsDecodeAsWithoutTheModules() {
    Random random = new Random(11);
    int compared = 0;
    int decoded = 0;
    for (Class<?> type : CLASSES) {
      for (int i = 0; i < 300; i++) {
        StringBuilder json = new StringBuilder();
        randomBean(random, CTXT.constructType(type), 0, json);
        if (ScalarReadsTest.assertSameDecoding(
            Clients.sharedSerialization(), json.toString(), type)) {
          decoded++;
        }
        compared++;
      }
    }
    assertThat(compared).isEqualTo(300 * CLASSES.size());
    assertThat(decoded).as("objects decoded (the others failed alike)").isGreaterThan(compared / 4);
  }

  @Test
  void theBenchmarksWatchEventsDecodeAsWithoutTheModules() {
    for (String event : WatchDecodeBench.steadyStatePodEvents()) {
      ScalarReadsTest.assertSameDecoding(Clients.sharedSerialization(), event, WatchEvent.class);
    }
  }

  private static BeanDeserializerBase bean(Class<?> type) {
    return bean(CTXT.constructType(type));
  }

  /** The bean deserializer in use for {@code type} (under the modules' wrappers), or null. */
  private static BeanDeserializerBase bean(JavaType type) {
    ValueDeserializer<?> d = CTXT.findRootValueDeserializer(type);
    while (!(d instanceof BeanDeserializerBase) && d != null && d.getDelegatee() != null) {
      d = d.getDelegatee();
    }
    return d instanceof BeanDeserializerBase b ? b : null;
  }

  private static void randomBean(Random random, JavaType type, int depth, StringBuilder out) {
    BeanDeserializerBase d = bean(type);
    List<SettableBeanProperty> props = new ArrayList<>();
    d.properties().forEachRemaining(props::add);
    out.append('{');
    int n = depth > 3 ? random.nextInt(2) : random.nextInt(7);
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : ",");
      if (props.isEmpty() || random.nextInt(15) == 0) {
        out.append("\"zUnknown\":");
        randomValue(random, null, depth + 1, out);
      } else {
        SettableBeanProperty p = props.get(random.nextInt(props.size()));
        out.append('"').append(p.getName()).append("\":");
        randomValue(random, p.getType(), depth + 1, out);
      }
    }
    out.append('}');
  }

  /** A value of {@code type} mostly, else of another type (always so without a type). */
  private static void randomValue(Random random, JavaType type, int depth, StringBuilder out) {
    if (type == null || random.nextInt(8) == 0 || depth > 5) {
      out.append(ODD.get(random.nextInt(ODD.size())));
      return;
    }
    Class<?> c = type.getRawClass();
    if (c == String.class) {
      out.append(List.of("\"a\"", "\"\"", "\"caf\\u00e9\"", "\"1Gi\"").get(random.nextInt(4)));
    } else if (c == Long.class || c == Integer.class) {
      out.append(random.nextInt(2000) - 1000);
    } else if (c == Boolean.class) {
      out.append(random.nextBoolean());
    } else if (type.isCollectionLikeType() || type.isArrayType()) {
      out.append('[');
      for (int i = random.nextInt(4); i > 0; i--) {
        randomValue(random, type.getContentType(), depth + 1, out);
        out.append(i > 1 ? "," : "");
      }
      out.append(']');
    } else if (type.isMapLikeType()) {
      out.append('{');
      for (int i = random.nextInt(4); i > 0; i--) {
        out.append("\"k").append(i).append("\":");
        randomValue(random, type.getContentType(), depth + 1, out);
        out.append(i > 1 ? "," : "");
      }
      out.append('}');
    } else if (bean(type) != null) {
      randomBean(random, type, depth, out);
    } else {
      out.append(ODD.get(random.nextInt(ODD.size()))); // a class with a deserializer of its own
    }
  }
}
