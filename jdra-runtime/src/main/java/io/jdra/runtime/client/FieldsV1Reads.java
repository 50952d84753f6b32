package io.jdra.runtime.client;

import io.fabric8.kubernetes.api.model.FieldsV1;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.SettableAnyProperty;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.bean.BeanDeserializer;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.introspect.AnnotatedMember;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that reads {@link FieldsV1} (the {@code fieldsV1} of every managedFields entry)
 * without calling its any-setter through Jackson's reflection.
 *
 * <p>{@code FieldsV1} has no properties: each of its fields is an unknown property that Jackson's
 * bean deserializer hands to the any-setter {@code setAdditionalProperty(String, Object)}, which it
 * invokes with {@code MethodHandle.invokeWithArguments} (an array and boxing per call; ~5 % of the
 * informer threads' CPU, which decode the claims' managedFields). Here an object is read as the
 * bean deserializer reads it (the bean created the same way, each value read by the any-setter's
 * own value deserializer, a failure wrapped with the same path) and each value is set by a direct
 * call. Anything but an object (null, a string, an array) goes to the bean deserializer, as does a
 * deserializer that is not the plain one this relies on.
 */
final class FieldsV1Reads extends SimpleModule {
  FieldsV1Reads() {
    super("jdra-fieldsv1-reads");
    setDeserializerModifier(
        new ValueDeserializerModifier() {
          @Override
          public ValueDeserializer<?> modifyDeserializer(
              DeserializationConfig config,
              BeanDescription.Supplier beanDesc,
              ValueDeserializer<?> deserializer) {
            return beanDesc.getBeanClass() == FieldsV1.class
                    && deserializer.getClass() == BeanDeserializer.class
                ? new Direct(deserializer)
                : deserializer;
          }
        });
  }

  /** FieldsV1's bean deserializer, with objects read here when that is what it would do. */
  static final class Direct extends DelegatingDeserializer {
    /**
     * A copy of the delegatee when every field of an object goes to its any-setter {@code
     * FieldsV1.setAdditionalProperty} or is ignored; null when the delegatee must read everything.
     * Decided on first use, when the delegatee is resolved.
     */
    private volatile Flags plain;

    private volatile boolean decided;

    Direct(ValueDeserializer<?> fabric8) {
      super(fabric8);
    }

    @Override
    protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> newDelegatee) {
      return newDelegatee.getClass() == BeanDeserializer.class
          ? new Direct(newDelegatee)
          : newDelegatee;
    }

    /**
     * What the bean deserializer does for an object ({@code deserializeFromObject}: FieldsV1 has
     * views to look at, so it never takes its vanilla path) with no properties: the bean created,
     * then for each field the ignored names handled as ignored, any other name's value read by the
     * any-setter's value deserializer (a failure wrapped with the bean and the name) and set.
     */
    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) {
      Flags f = plain();
      if (f == null || !p.isExpectedStartObjectToken() || ctxt.getActiveView() != null) {
        return _delegatee.deserialize(p, ctxt);
      }
      FieldsV1 fields = (FieldsV1) f.getValueInstantiator().createUsingDefault(ctxt);
      String name = p.nextName();
      if (name == null) {
        return fields; // an empty object: Jackson does not assign it to the parser either
      }
      p.assignCurrentValue(fields);
      SettableAnyProperty any = f.anySetter();
      for (; name != null; name = p.nextName()) {
        p.nextToken();
        if (f.ignores(name)) {
          f.unknown(p, ctxt, fields, name);
          continue;
        }
        Object value;
        try {
          value = any.deserialize(p, ctxt);
        } catch (Exception e) {
          throw f.wrapAndThrow(e, fields, name, ctxt);
        }
        fields.setAdditionalProperty(name, value);
      }
      return fields;
    }

    /** Whether objects are read here (for tests). */
    boolean readsDirectly() {
      return plain() != null;
    }

    private Flags plain() {
      if (!decided) {
        plain = Flags.ifPlain((BeanDeserializer) _delegatee);
        decided = true;
      }
      return plain;
    }
  }

  /** A copy of a bean deserializer, to read and use what its class keeps to subclasses. */
  private static final class Flags extends BeanDeserializer {
    private Flags(BeanDeserializer d) {
      super(d);
    }

    /**
     * A copy of {@code d} if an object's every field goes to its any-setter or is ignored: a plain
     * bean ({@link PlainBeans#isPlain}) without properties or a list of the only names included,
     * whose any-setter is the method {@code FieldsV1.setAdditionalProperty}; else null.
     */
    static Flags ifPlain(BeanDeserializer d) {
      if (!PlainBeans.isPlain(d) || d.getPropertyCount() != 0) {
        return null;
      }
      Flags f = new Flags(d);
      SettableAnyProperty any = f._anySetter;
      if (f._includableProps != null
          || any == null
          || !any.isSetterType()
          || !any.hasValueDeserializer()) {
        return null;
      }
      AnnotatedMember setter = any.getProperty().getMember();
      return setter != null
              && setter.getName().equals("setAdditionalProperty")
              && setter.getDeclaringClass() == FieldsV1.class
          ? f
          : null;
    }

    SettableAnyProperty anySetter() {
      return _anySetter;
    }

    boolean ignores(String name) {
      return _ignorableProps != null && _ignorableProps.contains(name);
    }

    /** The bean deserializer's own handling of a field that is no property. */
    void unknown(JsonParser p, DeserializationContext ctxt, Object bean, String name) {
      handleUnknownVanilla(p, ctxt, bean, name);
    }
  }
}
