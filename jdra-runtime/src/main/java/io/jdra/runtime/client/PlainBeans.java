package io.jdra.runtime.client;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.bean.BeanDeserializer;
import tools.jackson.databind.util.TokenBuffer;

/**
 * Reading an object whose first fields were buffered, without replaying them in front of the
 * stream: the bean is created, the buffered fields are set, then the rest of the object is read
 * from the stream itself into the same bean. For a plain bean (a default constructor, properties
 * set one by one in stream order) that is what reading the whole object in one go does, and the
 * parser the bean deserializer reads most tokens from is the stream's own, not a sequence that
 * forwards each call (which made the bean deserializer's calls on its parser megamorphic).
 */
final class PlainBeans {
  private PlainBeans() {}

  /**
   * Whether {@code d} is Jackson's bean deserializer for a plain bean: default creation, no
   * unwrapped or external-type-id properties, no object ids or injectables, so that its updating
   * read ({@code deserialize(p, ctxt, bean)}) sets the same properties in the same order as its
   * normal read (views, if a reader had one, are applied by both alike).
   */
  static boolean isPlain(ValueDeserializer<?> d) {
    return d.getClass() == BeanDeserializer.class && new Flags((BeanDeserializer) d).plain();
  }

  /**
   * The object {@code buffered} starts (its fields so far, not closed) followed by the rest of the
   * object {@code p} is in, read by the plain bean deserializer {@code d}, with {@code between} run
   * on the bean between the two. {@code p} is on the last value buffered; it ends on the object's
   * end.
   */
  static <T> T read(
      ValueDeserializer<Object> d,
      TokenBuffer buffered,
      JsonParser p,
      DeserializationContext ctxt,
      java.util.function.Consumer<T> between) {
    buffered.writeEndObject();
    @SuppressWarnings("unchecked")
    T bean = (T) ((BeanDeserializer) d).getValueInstantiator().createUsingDefault(ctxt);
    d.deserialize(buffered.asParserOnFirstToken(ctxt, p), ctxt, bean);
    between.accept(bean);
    p.nextToken(); // the next field's name or the object's end
    d.deserialize(p, ctxt, bean);
    return bean;
  }

  /** A copy of a bean deserializer, to read the flags its class keeps to subclasses. */
  private static final class Flags extends BeanDeserializer {
    Flags(BeanDeserializer d) {
      super(d);
    }

    boolean plain() {
      return !_nonStandardCreation
          && _valueInstantiator.canCreateUsingDefault()
          && _unwrappedPropertyHandler == null
          && _externalTypeIdHandler == null
          && _objectIdReader == null
          && _injectables == null;
    }
  }
}
