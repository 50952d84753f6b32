package io.jdra.runtime.client;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Function;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.ser.BeanPropertyWriter;
import tools.jackson.databind.ser.impl.PropertySerializerMap;

/**
 * A property that is no {@link ScalarWrite} (objects, lists, maps, Integer fields) written as its
 * {@link BeanPropertyWriter} writes it, with the getter called by a compiled {@link Function}
 * instead of the writer's method handle (held in a field, never inlined). It is a copy of the
 * writer, so it finds the value's serializer as the writer does (its own serializer, else the one
 * for the value's class, contextualized for this property and kept per class). Only a plain writer
 * qualifies: of Jackson's own class, a public getter of a public class, no type id, no view to
 * apply (see {@link ScalarWrite}), no serializer for null (so a null writes nothing, as the writer
 * does) and no value to suppress other than null or an empty value (fabric8's {@code NON_NULL} and
 * {@code NON_EMPTY}).
 */
final class ValueWrite extends BeanPropertyWriter {
  private final transient Function<Object, Object> getter;

  private ValueWrite(BeanPropertyWriter w, Function<Object, Object> getter) {
    super(w);
    this.getter = getter;
  }

  /** The value write of {@code w}, or null if {@code w} is no plain writer. */
  static ValueWrite of(BeanPropertyWriter w) {
    if (w.getClass() != BeanPropertyWriter.class || !(w.getMember() instanceof AnnotatedMethod m)) {
      return null;
    }
    Method getter = m.getAnnotated();
    if (getter.getParameterCount() != 0
        || !Modifier.isPublic(getter.getModifiers())
        || !Modifier.isPublic(getter.getDeclaringClass().getModifiers())
        || getter.getReturnType().isPrimitive()) {
      return null;
    }
    // Whether the writer is plain is read from a copy, before a getter class is made for it.
    if (!new ValueWrite(w, null).plain()) {
      return null;
    }
    Function<Object, Object> f = CompiledCalls.getter(getter);
    return f == null ? null : new ValueWrite(w, f);
  }

  private boolean plain() {
    return _typeSerializer == null
        && _applyView == null
        && _nullSerializer == null
        && (_suppressableValue == null || _suppressableValue == MARKER_FOR_EMPTY)
        && (_serializer != null || _dynamicSerializers != null);
  }

  /** What the writer's {@code serializeAsProperty} writes for this property of {@code bean}. */
  void write(Object bean, JsonGenerator gen, SerializationContext ctxt) throws Exception {
    Object value = getter.apply(bean);
    if (value == null) {
      return;
    }
    ValueSerializer<Object> ser = _serializer;
    if (ser == null) {
      Class<?> type = value.getClass();
      PropertySerializerMap map = _dynamicSerializers;
      ser = map.serializerFor(type);
      if (ser == null) {
        ser = _findAndAddDynamic(map, type, ctxt);
      }
    }
    if (_suppressableValue == MARKER_FOR_EMPTY && ser.isEmpty(ctxt, value)
        || value == bean && _handleSelfReference(bean, gen, ctxt, ser)) {
      return;
    }
    gen.writeName(_name);
    ser.serialize(value, gen, ctxt);
  }
}
