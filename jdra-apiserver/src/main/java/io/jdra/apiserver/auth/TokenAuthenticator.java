package io.jdra.apiserver.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Bearer tokens to users, as upstream's static token authenticator ({@code --token-auth-file}).
 * Tokens are looked up by their SHA-256, so the lookup takes no longer for a token that shares a
 * prefix with a valid one. Every user it returns is in {@code system:authenticated}. Immutable.
 */
public final class TokenAuthenticator {
  private final Map<String, UserInfo> byDigest;

  /**
   * @param users token to user
   */
  public TokenAuthenticator(Map<String, UserInfo> users) {
    Map<String, UserInfo> m = new HashMap<>();
    users.forEach((token, user) -> m.put(digest(token), user.authenticated()));
    this.byDigest = Map.copyOf(m);
  }

  /**
   * The user of an {@code Authorization} header value, or empty when it is not a bearer token this
   * server knows. The scheme is case-insensitive (RFC 7235, as upstream's bearer authenticator).
   */
  public Optional<UserInfo> authenticate(String authorizationHeader) {
    if (authorizationHeader == null
        || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String token = authorizationHeader.substring(7).trim();
    if (token.isEmpty()) {
      return Optional.empty();
    }
    return Optional.ofNullable(byDigest.get(digest(token)));
  }

  private static String digest(String token) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(d.digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
