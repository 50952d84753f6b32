package io.jdra.runtime.client;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Function;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.ser.BeanPropertyWriter;
import tools.jackson.databind.ser.jdk.BooleanSerializer;
import tools.jackson.databind.ser.jdk.NumberSerializers;
import tools.jackson.databind.ser.jdk.StringSerializer;

/**
 * A scalar property (String, Long, Boolean) written as its {@link BeanPropertyWriter} writes it,
 * with the getter called by a compiled {@link Function} instead of the writer's method handle (held
 * in a field, never inlined: {@code Invokers.checkCustomized}, {@code invokeExact_MT}; over a tenth
 * of the binding threads' samples in the steady-state bench, which serialize the claim they
 * update). Only a plain writer qualifies: of Jackson's own class, a public getter of a public
 * class, Jackson's String, Long or Boolean serializer, no type id, no view to apply (the views a
 * property is in only matter with an active view, where {@link DirectPropertyWrites} leaves the
 * writing to Jackson), no value to suppress other than null and no serializer for null (so a null
 * value writes nothing, as the writer does when it suppresses nulls, fabric8's {@code NON_NULL}).
 */
final class ScalarWrite {
  private enum Kind {
    STRING(String.class),
    LONG(Long.class),
    BOOLEAN(Boolean.class);

    private final Class<?> type;

    Kind(Class<?> type) {
      this.type = type;
    }

    Class<?> type() {
      return type;
    }
  }

  private final Function<Object, Object> getter;
  private final SerializableString name;
  private final Kind kind;

  private ScalarWrite(Function<Object, Object> getter, SerializableString name, Kind kind) {
    this.getter = getter;
    this.name = name;
    this.kind = kind;
  }

  /** The scalar write of {@code w}, or null if {@code w} is no plain scalar writer. */
  static ScalarWrite of(BeanPropertyWriter w) {
    if (w.getClass() != BeanPropertyWriter.class) {
      return null;
    }
    Plain p = new Plain(w);
    Kind kind = p.kind();
    if (kind == null || !(w.getMember() instanceof AnnotatedMethod m)) {
      return null;
    }
    Method getter = m.getAnnotated();
    if (getter.getParameterCount() != 0
        || !Modifier.isPublic(getter.getModifiers())
        || !Modifier.isPublic(getter.getDeclaringClass().getModifiers())
        || getter.getReturnType() != kind.type()) {
      return null;
    }
    Function<Object, Object> f = CompiledCalls.getter(getter);
    return f == null ? null : new ScalarWrite(f, w.getSerializedName(), kind);
  }

  /** What the writer writes for this property of {@code bean}. */
  void write(Object bean, JsonGenerator gen) {
    Object value = getter.apply(bean);
    if (value == null) {
      return;
    }
    gen.writeName(name);
    switch (kind) {
      case STRING -> gen.writeString((String) value);
      case LONG -> gen.writeNumber(((Long) value).longValue());
      case BOOLEAN -> gen.writeBoolean(Boolean.TRUE.equals(value));
    }
  }

  /** A copy of a writer, to read what its class keeps to subclasses. */
  private static final class Plain extends BeanPropertyWriter {
    Plain(BeanPropertyWriter w) {
      super(w);
    }

    /** The kind of a plain scalar writer, else null. */
    Kind kind() {
      if (_typeSerializer != null
          || _applyView != null
          || _suppressableValue != null
          || _nullSerializer != null
          || _serializer == null) {
        return null;
      }
      Class<?> s = _serializer.getClass();
      return s == StringSerializer.class
          ? Kind.STRING
          : s == NumberSerializers.LongSerializer.class
              ? Kind.LONG
              : s == BooleanSerializer.class ? Kind.BOOLEAN : null;
    }
  }
}
