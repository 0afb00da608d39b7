use super::*;

#[test]
fn passwords_hash_with_argon2id_and_verify() {
    let h = hash_password("correct horse").unwrap();
    assert!(h.starts_with("$argon2id$"), "{h}");
    assert!(!h.contains("correct horse"));
    assert!(password_matches("correct horse", &h));
    assert!(!password_matches("correct horsf", &h));
    assert!(!password_matches("correct horse", "not a hash"));
    assert_ne!(
        h,
        hash_password("correct horse").unwrap(),
        "each hash has its own salt"
    );
}

#[test]
fn link_tokens_are_256_bits_of_lower_hex_and_stored_hashed() {
    let t = new_link_token();
    assert!(is_link_token_shape(&t));
    assert!(!is_link_token_shape(&t.to_uppercase()));
    assert!(!is_link_token_shape(&t[1..]));
    assert_ne!(link_hash(&t), t);
    assert_eq!(link_hash(&t), link_hash(&t));
}

#[test]
fn mailed_codes_are_bound_to_their_customer() {
    assert_ne!(mail_code_hash(1, "123456"), mail_code_hash(2, "123456"));
    assert_ne!(mail_code_hash(1, "123456"), mail_code_hash(1, "123457"));
}

#[test]
fn limit_keys_keep_no_email_in_clear() {
    let k = account_key("email", "dana.levi@example.com");
    assert!(!k.stored.contains("dana"));
    assert_eq!(k.limit, ACCOUNT_FAILURES);
    assert_ne!(
        k.stored,
        account_key("member", "dana.levi@example.com").stored
    );
}
