package io.jdra.apiserver.admission;

import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ValidatingAdmissionPolicy the DRA driver docs recommend and the dra-example-driver chart
 * installs ({@code resourceslices-policy-dra-example-driver}), built in: the driver's service
 * account may create, update and delete only ResourceSlices whose {@code spec.nodeName} is the node
 * its token is bound to ({@code authentication.kubernetes.io/node-name}). A refusal is what the
 * policy's {@code Deny} gives upstream: 422 Invalid, the policy's message. Other users pass.
 * Thread-safe, immutable.
 */
public final class ResourceSlicePolicy implements Admission {
  private final String policyName;
  private final String restrictedUser;

  /**
   * @param policyName the policy's (and its binding's) name
   * @param restrictedUser the user name the policy's match condition selects
   */
  public ResourceSlicePolicy(String policyName, String restrictedUser) {
    this.policyName = policyName;
    this.restrictedUser = restrictedUser;
  }

  /** The policy of the dra-example-driver chart installed as the demos install it. */
  public static ResourceSlicePolicy exampleDriver() {
    return new ResourceSlicePolicy(
        "resourceslices-policy-dra-example-driver",
        UserInfo.SERVICE_ACCOUNT_PREFIX + "dra-example-driver:dra-example-driver-service-account");
  }

  @Override
  public List<Cause> admit(Request r) {
    if (r.user() == null
        || !r.user().name().equals(restrictedUser)
        || !r.type().group().equals("resource.k8s.io")
        || !r.type().plural().equals("resourceslices")) {
      return List.of();
    }
    String userNode = r.user().firstExtra(UserInfo.NODE_NAME_EXTRA);
    ObjectNode obj = r.operation() == Operation.DELETE ? r.oldObject() : r.object();
    String objectNode = Json.text(obj, "spec.nodeName");
    objectNode = objectNode == null ? "" : objectNode;
    if (userNode.isEmpty()) {
      throw deny(
          r,
          obj,
          "no node association found for user, this user must run in a pod on a node and"
              + " ServiceAccountTokenPodNodeInfo must be enabled");
    }
    if (!userNode.equals(objectNode)) {
      throw deny(
          r,
          obj,
          "this user running on node '"
              + userNode
              + "' may not modify "
              + (objectNode.isEmpty()
                  ? "cluster resourceslices"
                  : "resourceslices on node '" + objectNode + "'"));
    }
    return List.of();
  }

  private ApiException deny(Request r, ObjectNode obj, String message) {
    String full =
        "ValidatingAdmissionPolicy '"
            + policyName
            + "' with binding '"
            + policyName
            + "' denied request: "
            + message;
    String name = Json.text(obj, "metadata.name");
    String n = name == null ? "" : " \"" + name + "\"";
    return new ApiException(
        422,
        "Invalid",
        r.type().qualifiedResource() + n + " is forbidden: " + full,
        name,
        r.type().group(),
        r.type().plural(),
        List.of(new Cause("", full, "")));
  }
}
