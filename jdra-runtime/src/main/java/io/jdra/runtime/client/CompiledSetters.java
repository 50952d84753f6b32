package io.jdra.runtime.client;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.BeanDeserializerBuilder;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.impl.MethodProperty;
import tools.jackson.databind.deser.impl.NullsConstantProvider;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that calls the setters of fabric8 model properties through a compiled {@link
 * BiConsumer} instead of Jackson's method handle.
 *
 * <p>Jackson's {@link MethodProperty} sets every value it reads through a method handle held in a
 * field, which the JIT does not inline ({@code Invokers.checkCustomized}, {@code invokeExact_MT}):
 * once per property of every object decoded, for the objects, lists, maps and Integer fields that
 * {@link ScalarReads} leaves to the bean deserializer and for every property of the classes it does
 * not read. Here each such property is wrapped in a {@link Compiled} property that reads the value
 * as the method property does (its null handling, value and type deserializers) and hands it to a
 * {@code LambdaMetafactory}-made setter call; failures of the setter are reported as the method
 * property reports them. Only a {@link MethodProperty} of a public void one-argument setter (of a
 * reference type) of a public class of fabric8's model is wrapped; the wrapping happens before
 * fabric8's own wrappers (its unmatched-type fallback to the additional properties) wrap the
 * property, so they keep working around it.
 */
final class CompiledSetters extends SimpleModule {
  private static final String MODEL = "io.fabric8.kubernetes.api.model.";

  CompiledSetters() {
    super("jdra-compiled-setters");
    setDeserializerModifier(
        new ValueDeserializerModifier() {
          @Override
          public BeanDeserializerBuilder updateBuilder(
              DeserializationConfig config,
              BeanDescription.Supplier beanDesc,
              BeanDeserializerBuilder builder) {
            List<SettableBeanProperty> compiled = new ArrayList<>();
            builder
                .getProperties()
                .forEachRemaining(p -> {
                  SettableBeanProperty c = compiled(p);
                  if (c != p) {
                    compiled.add(c);
                  }
                });
            compiled.forEach(c -> builder.addOrReplaceProperty(c, true));
            return builder;
          }
        });
  }

  /** {@code p} with a compiled setter call where that is allowed; else {@code p}. */
  static SettableBeanProperty compiled(SettableBeanProperty p) {
    if (p.getClass() != MethodProperty.class || !(p.getMember() instanceof AnnotatedMethod m)) {
      return p;
    }
    Method setter = m.getAnnotated();
    Class<?> type = setter.getDeclaringClass();
    if (!type.getName().startsWith(MODEL)
        || !Modifier.isPublic(type.getModifiers())
        || !Modifier.isPublic(setter.getModifiers())
        || Modifier.isStatic(setter.getModifiers())
        || setter.getParameterCount() != 1
        || setter.getParameterTypes()[0].isPrimitive()
        || setter.getReturnType() != void.class) {
      return p;
    }
    BiConsumer<Object, Object> call = CompiledCalls.setter(setter);
    return call == null ? p : new Compiled(p, call);
  }

  /**
   * A method property whose value is set through {@link #setter}; its deserialization is the method
   * property's ({@code MethodProperty.deserializeAndSet}, {@code set}), everything else is
   * delegated to it.
   */
  static final class Compiled extends SettableBeanProperty.Delegating {
    private final BiConsumer<Object, Object> setter;
    private final boolean skipNulls;

    Compiled(SettableBeanProperty methodProperty, BiConsumer<Object, Object> setter) {
      super(methodProperty);
      this.setter = setter;
      this.skipNulls = NullsConstantProvider.isSkipper(_nullProvider);
    }

    @Override
    protected SettableBeanProperty withDelegate(SettableBeanProperty d) {
      // Jackson makes copies with other deserializers or null handling while it resolves.
      return d.getClass() == MethodProperty.class ? new Compiled(d, setter) : d;
    }

    @Override
    public void deserializeAndSet(JsonParser p, DeserializationContext ctxt, Object instance)
        throws JacksonException {
      Object value;
      if (p.hasToken(JsonToken.VALUE_NULL)) {
        if (skipNulls) {
          return;
        }
        value = _nullProvider.getNullValue(ctxt);
      } else if (_valueTypeDeserializer == null) {
        value = _valueDeserializer.deserialize(p, ctxt);
        if (value == null) {
          if (skipNulls) {
            return;
          }
          value = _nullProvider.getNullValue(ctxt);
        }
      } else {
        value = _valueDeserializer.deserializeWithType(p, ctxt, _valueTypeDeserializer);
      }
      setValue(p, value, instance);
    }

    @Override
    public void set(DeserializationContext ctxt, Object instance, Object value)
        throws JacksonException {
      if (value == null && skipNulls) {
        return;
      }
      setValue(ctxt.getParser(), value, instance);
    }

    private void setValue(JsonParser p, Object value, Object instance) {
      try {
        setter.accept(instance, value);
      } catch (Throwable e) {
        _throwAsJacksonE(p, e, value);
      }
    }
  }
}
