package io.jdra.runtime.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.bean.BeanDeserializer;
import tools.jackson.databind.deser.std.StdValueInstantiator;

/**
 * {@link DirectCreators}: the model classes the informers decode are created by the compiled
 * supplier, each call a new object of the class; other classes keep Jackson's instantiator. That
 * the objects then decode as fabric8 decodes them is {@link ClientSerializationTest}'s and {@link
 * ScalarReadsTest}'s.
 */
class DirectCreatorsTest {
  /** A public bean outside fabric8's model. */
  public static final class Other {
    public String name;
  }

  @Test
  void modelClassesAreCreatedByTheSupplierOthersAsBefore() {
    DeserializationContext ctxt =
        ((ClientSerialization) Clients.sharedSerialization())
            .configuredMapper()
            ._deserializationContext();
    for (Class<?> type :
        List.of(
            Pod.class,
            ResourceClaim.class,
            ResourceClaimStatus.class,
            WatchEvent.class,
            ObjectMeta.class)) {
      ValueInstantiator i = instantiator(ctxt, type);
      assertThat(i).as(type.getName()).isInstanceOf(DirectCreators.Direct.class);
      Object a = i.createUsingDefault(ctxt);
      Object b = i.createUsingDefault(ctxt);
      assertThat(a).as(type.getName()).isExactlyInstanceOf(type).isNotSameAs(b);
    }
    assertThat(instantiator(ctxt, Other.class)).isExactlyInstanceOf(StdValueInstantiator.class);
  }

  private static ValueInstantiator instantiator(DeserializationContext ctxt, Class<?> type) {
    ValueDeserializer<?> d = ctxt.findRootValueDeserializer(ctxt.constructType(type));
    while (!(d instanceof BeanDeserializer) && d.getDelegatee() != null) {
      d = d.getDelegatee();
    }
    return ((BeanDeserializer) d).getValueInstantiator();
  }
}
