package io.jdra.runtime.client;

import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.internal.KubernetesDeserializer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.util.JsonParserSequence;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.util.TokenBuffer;

/**
 * Decodes a {@link WatchEvent} whose object has a registered kind in one pass: it buffers the
 * event's fields up to {@code object} and the object's fields up to {@code apiVersion} and {@code
 * kind} (the first two in what API servers send), then lets the registered class's deserializer
 * read the buffered fields followed by the rest of the stream. That is what fabric8's {@link
 * KubernetesDeserializer} does after reading the whole object into a tree, without the tree.
 *
 * <p>For plain beans (the model classes and the event itself, see {@link PlainBeans}) the buffered
 * fields are set first and the rest is read from the stream itself. Other classes read a sequence
 * of the buffered tokens and the stream, whose every call forwards to one of the two parsers: for a
 * Pod and a ResourceClaim that was 60 % of the decoding time ({@code WatchDecodeBench}).
 *
 * <p>Anything else (no object, an object without a string apiVersion and kind, a kind with no
 * class, a class fabric8 decodes with its own deserializer) goes to fabric8's event deserializer
 * with everything read so far replayed, so it is decoded exactly as before.
 */
final class WatchEventDeserializer extends DelegatingDeserializer {
  private final BiFunction<String, String, Class<? extends KubernetesResource>> kinds;
  private final Map<Class<?>, Typed> typed = new ConcurrentHashMap<>();

  /** Whether fabric8's event deserializer is a plain bean's ({@link PlainBeans}); on first use. */
  private Boolean plainEvents;

  /** A class's deserializer, and whether it is a plain bean's. */
  private record Typed(ValueDeserializer<Object> deserializer, boolean plain) {}

  WatchEventDeserializer(
      ValueDeserializer<?> fabric8,
      BiFunction<String, String, Class<? extends KubernetesResource>> kinds) {
    super(fabric8);
    this.kinds = kinds;
  }

  @Override
  protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> newDelegatee) {
    return new WatchEventDeserializer(newDelegatee, kinds);
  }

  @Override
  public Object deserialize(JsonParser p, DeserializationContext ctxt) {
    if (!p.isExpectedStartObjectToken()) {
      return _delegatee.deserialize(p, ctxt);
    }
    TokenBuffer event = ctxt.bufferForInputBuffering(p);
    event.writeStartObject();
    for (String name = p.nextName(); name != null; name = p.nextName()) {
      if (p.nextToken() == JsonToken.START_OBJECT && name.equals("object")) {
        return withObject(p, ctxt, event);
      }
      event.writeName(name);
      event.copyCurrentStructure(p);
    }
    event.writeEndObject();
    return _delegatee.deserialize(event.asParserOnFirstToken(ctxt, p), ctxt);
  }

  /** With {@code p} on the start of the event's object, after the fields in {@code event}. */
  private Object withObject(JsonParser p, DeserializationContext ctxt, TokenBuffer event) {
    TokenBuffer head = ctxt.bufferForInputBuffering(p);
    head.writeStartObject();
    String apiVersion = null;
    String kind = null;
    while (apiVersion == null || kind == null) {
      String name = p.nextName();
      if (name == null) {
        head.writeEndObject();
        return replayed(p, ctxt, event, head);
      }
      JsonToken value = p.nextToken();
      if (value == JsonToken.VALUE_STRING && name.equals("apiVersion")) {
        apiVersion = p.getString();
      } else if (value == JsonToken.VALUE_STRING && name.equals("kind")) {
        kind = p.getString();
      }
      head.writeName(name);
      head.copyCurrentStructure(p);
    }
    Typed t = typedDeserializer(ctxt, apiVersion, kind);
    if (t == null) {
      copyRest(p, head);
      return replayed(p, ctxt, event, head);
    }
    if (t.plain() && plainEvents()) {
      // p is on the object's last buffered value; then on its end, then on the event's end. The
      // object is set where the stream has it: a second "object" (no API server sends one) wins
      // as it does in fabric8.
      Object object = PlainBeans.read(t.deserializer(), head, p, ctxt, o -> {});
      return PlainBeans.<WatchEvent>read(
          eventDeserializer(), event, p, ctxt, e -> e.setObject(object));
    }
    Object object = t.deserializer().deserialize(sequence(ctxt, head, p), ctxt);
    // p is on the end of the object: fabric8 reads the event's other fields, if any, as usual
    // (a second "object", which no API server sends, would win as it does in fabric8).
    WatchEvent decoded = (WatchEvent) _delegatee.deserialize(sequence(ctxt, event, p), ctxt);
    if (decoded.getObject() == null) {
      decoded.setObject(object);
    }
    return decoded;
  }

  /** Buffers the rest of the object {@code p} is in, up to and including its end. */
  private static void copyRest(JsonParser p, TokenBuffer into) {
    for (String name = p.nextName(); name != null; name = p.nextName()) {
      p.nextToken();
      into.writeName(name);
      into.copyCurrentStructure(p);
    }
    into.writeEndObject();
  }

  /** The event as fabric8 decodes it, its fields read so far replayed from the buffers. */
  private Object replayed(
      JsonParser p, DeserializationContext ctxt, TokenBuffer event, TokenBuffer object) {
    event.writeName("object");
    event.copyCurrentStructure(object.asParserOnFirstToken(ctxt));
    return _delegatee.deserialize(sequence(ctxt, event, p), ctxt);
  }

  /** The buffered tokens, then the rest of {@code p}; on the first buffered token. */
  private static JsonParser sequence(
      DeserializationContext ctxt, TokenBuffer buffered, JsonParser p) {
    return JsonParserSequence.createFlattened(false, buffered.asParserOnFirstToken(ctxt, p), p);
  }

  /**
   * The deserializer fabric8's {@link KubernetesDeserializer} ends in for this kind, or null where
   * it would not use the class's own deserializer: no class registered, or a class decoded by
   * fabric8's deserializer itself.
   */
  private Typed typedDeserializer(DeserializationContext ctxt, String apiVersion, String kind) {
    Class<? extends KubernetesResource> type = kinds.apply(apiVersion, kind);
    if (type == null) {
      return null;
    }
    Typed t = typed.get(type);
    if (t == null) {
      ValueDeserializer<Object> d = ctxt.findRootValueDeserializer(ctxt.constructType(type));
      if (isFabric8s(d) || isFabric8s(d.getDelegatee())) {
        return null;
      }
      t = new Typed(d, PlainBeans.isPlain(d));
      typed.put(type, t);
    }
    return t;
  }

  private boolean plainEvents() {
    if (plainEvents == null) {
      plainEvents = PlainBeans.isPlain(_delegatee);
    }
    return plainEvents;
  }

  @SuppressWarnings("unchecked")
  private ValueDeserializer<Object> eventDeserializer() {
    return (ValueDeserializer<Object>) _delegatee;
  }

  private static boolean isFabric8s(Object deserializer) {
    return deserializer instanceof KubernetesDeserializer;
  }
}
