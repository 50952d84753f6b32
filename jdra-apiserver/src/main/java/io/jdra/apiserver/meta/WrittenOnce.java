package io.jdra.apiserver.meta;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An object node that the server builds and never changes once it is in a tree that is written
 * (like every stored tree): {@link TreeBytes} writes it once and copies those bytes afterwards,
 * since such a node recurs unchanged in an object's successive versions (a managed-fields entry's
 * FieldsV1). A copy of it is a plain node. With assertions on, each copy of the bytes is checked
 * against writing the node again.
 */
public class WrittenOnce extends ObjectNode {
  private static final long serialVersionUID = 1L;

  /** Its bytes as {@link TreeBytes} writes them (with parsing giving back its classes); or null. */
  private transient volatile byte[] bytes;

  protected WrittenOnce() {
    super(JsonNodeFactory.instance);
  }

  byte[] bytes() {
    return bytes;
  }

  void bytes(byte[] written) {
    bytes = written;
  }
}
