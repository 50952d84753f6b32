package io.jdra.runtime.client;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;

/**
 * One top-level member of a JSON object set in its text, the rest of the text kept as it is: a
 * request body made from an answer (the object as the API server stored it, with a new status)
 * without decoding the answer into a tree and encoding the tree again. The object is only
 * tokenized, to find where its members start.
 */
public final class JsonMember {
  /** Property names are not canonicalized: managedFields hold names unique to each object. */
  private static final JsonFactory JSON =
      JsonFactory.builder()
          .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
          .disable(TokenStreamFactory.Feature.INTERN_PROPERTY_NAMES)
          .build();

  private JsonMember() {}

  /**
   * {@code object} with its member {@code name} set to the JSON {@code value}: where the member is
   * when the object has it, else last. What putting the value into the object's members (a {@code
   * LinkedHashMap} or a Jackson {@code ObjectNode}) and writing them would give, byte for byte when
   * {@code object} is written without white space as Jackson writes it; other white space is kept,
   * except between the replaced member and what follows it.
   *
   * @param name a name JSON writes without escapes (letters, digits, {@code -_.:/})
   * @param value one JSON value, written as is
   * @throws JacksonException if {@code object} is not one JSON object
   * @throws IllegalArgumentException if the object has the member more than once
   */
  public static String with(String object, String name, String value) {
    try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), object)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("not a JSON object");
      }
      int start = -1; // where the member's name starts
      int next = -1; // where the member after it starts
      boolean any = false;
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        int at = offset(p);
        if (start >= 0 && next < 0) {
          next = at;
        }
        if (name.equals(p.currentName())) {
          if (start >= 0) {
            throw new IllegalArgumentException("member " + name + " appears twice");
          }
          start = at;
        }
        any = true;
        p.nextToken();
        p.skipChildren();
      }
      int end = offset(p); // the object's closing brace (the parser fails on anything else)
      String member = '"' + name + "\":" + value;
      if (start < 0) {
        return object.substring(0, end) + (any ? "," : "") + member + object.substring(end);
      }
      if (next < 0) {
        return object.substring(0, start) + member + object.substring(end);
      }
      return object.substring(0, start) + member + "," + object.substring(next);
    }
  }

  /** Where the parser's current token starts in the text. */
  private static int offset(JsonParser p) {
    return (int) p.currentTokenLocation().getCharOffset();
  }
}
