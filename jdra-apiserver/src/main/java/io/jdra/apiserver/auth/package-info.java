/**
 * Who may do what, as kube-apiserver's authentication and authorization: bearer tokens to users
 * ({@link io.jdra.apiserver.auth.TokenAuthenticator}, {@link io.jdra.apiserver.auth.TokenFile} in
 * upstream's {@code --token-auth-file} format), then {@code Node,RBAC}: the {@link
 * io.jdra.apiserver.auth.NodeAuthorizer} for kubelets and {@link
 * io.jdra.apiserver.auth.RbacAuthorizer} over the {@link io.jdra.apiserver.auth.BootstrapPolicy}
 * roles. Authorization sees only the request (verb, resource, name, field selector); what a write
 * contains is admission's to check (NodeRestriction and the ResourceSlice policy in {@code
 * admission}). Uses {@code meta}, {@code registry} and {@code storage} only.
 */
package io.jdra.apiserver.auth;
