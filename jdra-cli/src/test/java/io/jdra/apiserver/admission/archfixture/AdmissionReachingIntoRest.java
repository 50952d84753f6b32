package io.jdra.apiserver.admission.archfixture;

import io.jdra.apiserver.rest.ObjectService;

/** Test fixture: an admission plugin that reaches back into the REST layer, which is forbidden. */
public final class AdmissionReachingIntoRest {
  private AdmissionReachingIntoRest() {}

  public static Object registry(ObjectService service) {
    return service.registry();
  }
}
