package io.jdra.runtime.client;

import io.fabric8.kubernetes.model.jackson.BeanPropertyWriterDelegate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.SerializationConfig;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.introspect.AnnotatedMember;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.BeanPropertyWriter;
import tools.jackson.databind.ser.BeanSerializer;
import tools.jackson.databind.ser.PropertyWriter;
import tools.jackson.databind.ser.UnrolledBeanSerializer;
import tools.jackson.databind.ser.ValueSerializerModifier;
import tools.jackson.databind.ser.bean.BeanSerializerBase;

/**
 * A Jackson module that writes a fabric8 model object whose additional properties are empty without
 * fabric8's check on each of its properties.
 *
 * <p>fabric8 wraps every property writer of a class with an any-getter ({@code
 * getAdditionalProperties}) in a {@link BeanPropertyWriterDelegate}: a property is written only if
 * the additional properties hold no value under its name (that value wins, written by the
 * any-getter). The check reads the map through reflection once per property, ~20 % of encoding a
 * ResourceClaim or a Pod. With a null or empty map every check passes and each wrapper writes what
 * the writer it wraps writes; so this module's serializer reads the map once per object and, when
 * it is empty, writes the wrapped writers themselves, in the same order, and otherwise lets
 * fabric8's wrappers decide as before. Everything else (views, filters, object ids, type ids,
 * copies Jackson makes of a serializer) keeps fabric8's serializer and its wrappers.
 */
final class DirectPropertyWrites extends SimpleModule {
  /** fabric8's wrapper keeps the writer it wraps private; null if that ever changes. */
  private static final VarHandle WRAPPED = wrappedField();

  DirectPropertyWrites() {
    super("jdra-direct-property-writes");
    setSerializerModifier(
        new ValueSerializerModifier() {
          @Override
          public ValueSerializer<?> modifySerializer(
              SerializationConfig config,
              BeanDescription.Supplier beanDesc,
              ValueSerializer<?> serializer) {
            // Jackson's two plain bean serializers (the unrolled one for up to six properties)
            // write the same; Direct is the looping one.
            Class<?> c = serializer.getClass();
            if (WRAPPED == null
                || c != BeanSerializer.class && c != UnrolledBeanSerializer.class
                || !hasWrappers((BeanSerializerBase) serializer)) {
              return serializer;
            }
            AnnotatedMember anyGetter = beanDesc.get().findAnyGetter();
            return anyGetter == null
                ? serializer
                : new Direct((BeanSerializerBase) serializer, anyGetter);
          }
        });
  }

  private static boolean hasWrappers(BeanSerializerBase serializer) {
    for (Iterator<PropertyWriter> it = serializer.properties(); it.hasNext(); ) {
      if (it.next() instanceof BeanPropertyWriterDelegate) {
        return true;
      }
    }
    return false;
  }

  private static VarHandle wrappedField() {
    try {
      return MethodHandles.privateLookupIn(BeanPropertyWriterDelegate.class, MethodHandles.lookup())
          .findVarHandle(BeanPropertyWriterDelegate.class, "delegate", BeanPropertyWriter.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // fabric8 changed: its serializers are kept as they are
    }
  }

  /**
   * fabric8's bean serializer (its wrappers in {@code _props}) that writes the wrapped writers when
   * the object's additional properties are empty.
   */
  static final class Direct extends BeanSerializer {
    private final AnnotatedMember anyGetter;

    /** Whether this serializer writes through its {@code _props} alone (see {@code serialize}). */
    private final boolean plainProps;

    /**
     * {@code _props} with each wrapper replaced by the writer it wraps; set by {@link #resolve},
     * which gives the wrapped writers their serializers (through the wrappers).
     */
    private volatile BeanPropertyWriter[] direct;

    /**
     * For each of {@link #direct}, its {@link ScalarWrite} where the writer is a plain scalar
     * one's, else null; set with it.
     */
    private volatile ScalarWrite[] scalars;

    /**
     * For each of {@link #direct} without a scalar write, its {@link ValueWrite} where the writer
     * is a plain one, else null; set with it.
     */
    private volatile ValueWrite[] values;

    Direct(BeanSerializerBase fabric8, AnnotatedMember anyGetter) {
      super(fabric8);
      this.anyGetter = anyGetter;
      this.plainProps = _objectIdWriter == null && _propertyFilterId == null;
    }

    @Override
    public void resolve(SerializationContext ctxt) {
      super.resolve(ctxt);
      BeanPropertyWriter[] unwrapped = _props.clone();
      for (int i = 0; i < unwrapped.length; i++) {
        if (unwrapped[i] instanceof BeanPropertyWriterDelegate d) {
          unwrapped[i] = (BeanPropertyWriter) WRAPPED.get(d);
        }
      }
      ScalarWrite[] s = new ScalarWrite[unwrapped.length];
      ValueWrite[] v = new ValueWrite[unwrapped.length];
      for (int i = 0; i < s.length; i++) {
        s[i] = ScalarWrite.of(unwrapped[i]);
        v[i] = s[i] == null ? ValueWrite.of(unwrapped[i]) : null;
      }
      scalars = s;
      values = v;
      direct = unwrapped;
    }

    /** How many of the properties are written by a {@link ScalarWrite} (for tests). */
    int scalarWrites() {
      ScalarWrite[] s = scalars;
      return s == null ? 0 : (int) java.util.Arrays.stream(s).filter(w -> w != null).count();
    }

    /** How many of the properties are written by a {@link ValueWrite} (for tests). */
    int valueWrites() {
      ValueWrite[] v = values;
      return v == null ? 0 : (int) java.util.Arrays.stream(v).filter(w -> w != null).count();
    }

    /** Whether objects without additional properties are written directly (for tests). */
    boolean writesDirectly() {
      return direct != null && plainProps;
    }

    @Override
    public void serialize(Object bean, JsonGenerator gen, SerializationContext ctxt)
        throws JacksonException {
      BeanPropertyWriter[] props = direct;
      if (props == null
          || !plainProps
          || _filteredProps != null && ctxt.getActiveView() != null
          || hasAdditionalProperties(bean)) {
        super.serialize(bean, gen, ctxt);
        return;
      }
      // What BeanSerializer.serialize does with _props, with the wrapped writers.
      gen.writeStartObject(bean);
      writeProperties(bean, gen, ctxt, props, scalars, values);
      gen.writeEndObject();
    }

    /**
     * What {@code _serializePropertiesNoView} does: each writer writes its property, a failure is
     * wrapped with the bean and the property's name; properties with a scalar or value write are
     * written by it.
     */
    private void writeProperties(
        Object bean,
        JsonGenerator gen,
        SerializationContext ctxt,
        BeanPropertyWriter[] props,
        ScalarWrite[] scalars,
        ValueWrite[] values) {
      int i = 0;
      try {
        for (; i < props.length; i++) {
          ScalarWrite s = scalars[i];
          ValueWrite v = values[i];
          if (s != null) {
            s.write(bean, gen);
          } else if (v != null) {
            v.write(bean, gen, ctxt);
          } else {
            props[i].serializeAsProperty(bean, gen, ctxt);
          }
        }
      } catch (Exception e) {
        wrapAndThrow(ctxt, e, bean, props[i].getName());
      } catch (StackOverflowError e) {
        throw DatabindException.from(gen, "Infinite recursion (StackOverflowError)", e)
            .prependPath(bean, props[i].getName());
      }
    }

    /** What each of fabric8's wrappers reads: the any-getter's map. */
    private boolean hasAdditionalProperties(Object bean) {
      Object map = anyGetter.getValue(bean);
      return map != null && !((Map<?, ?>) map).isEmpty();
    }
  }
}
