package io.jdra.apiserver.auth;

/**
 * An authorizer's answer, as upstream's: allow, deny, or no opinion (the next authorizer decides;
 * when none allows, the request is refused). The reason says why not, for the 403's message.
 *
 * @param kind the decision
 * @param reason why, or {@code ""}
 */
public record Decision(Kind kind, String reason) {
  /** The three answers. */
  public enum Kind {
    ALLOW,
    DENY,
    NO_OPINION
  }

  public static final Decision ALLOW = new Decision(Kind.ALLOW, "");
  public static final Decision NO_OPINION = new Decision(Kind.NO_OPINION, "");

  public static Decision noOpinion(String reason) {
    return new Decision(Kind.NO_OPINION, reason);
  }

  public boolean allowed() {
    return kind == Kind.ALLOW;
  }
}
