"""Every credential the settings and the environment hold is masked from a text, whoever wrote
it: ours, DuckDB's, libpq's, a store client's."""

from __future__ import annotations

from pathlib import Path

from emissions_etl.scrubbing import MASK, keep_secret, scrub


def test_a_kept_secret_is_masked_wherever_it_appears() -> None:
    keep_secret("k3pt-s3cret-value")

    assert scrub("key k3pt-s3cret-value and k3pt-s3cret-value") == f"key {MASK} and {MASK}"


def test_the_credentials_the_stores_and_libpq_read_from_the_environment_are_masked() -> None:
    environ = {
        "AWS_SECRET_ACCESS_KEY": "aws/secret+key",
        "AWS_SESSION_TOKEN": "session-token-123",
        "PGPASSWORD": "pg-pass-word",
        "AZURE_STORAGE_KEY": "azure-key==",
        "EMISSIONS_API_KEY": "api-key-4242",
    }
    text = " ".join(environ.values()) + " signed with aws%2Fsecret%2Bkey"

    assert scrub(text, environ) == " ".join([MASK] * 5) + f" signed with {MASK}"


def test_a_conninfo_password_is_masked_by_its_shape_however_short() -> None:
    said = "could not connect: dbname=lake host=db user=etl password=ab port=5432"

    assert (
        scrub(said, {})
        == f"could not connect: dbname=lake host=db user=etl password={MASK} port=5432"
    )


def test_the_warehouse_s_password_is_masked_even_where_duckdb_quotes_it_otherwise() -> None:
    environ = {"EMISSIONS_WAREHOUSE": "ducklake:postgres:dbname=lake password='s3cr et'"}

    assert scrub("failed for user with 's3cr et'", environ) == f"failed for user with '{MASK}'"


def test_a_url_s_password_and_signed_query_are_masked() -> None:
    said = "postgresql://etl:hunter22@db/lake and https://x.blob/c?sig=AbC%2B and AccountKey=zz;"

    assert scrub(said, {}) == (
        f"postgresql://etl:{MASK}@db/lake and https://x.blob/c?sig={MASK} and AccountKey={MASK};"
    )


def test_the_passwords_of_the_pgpass_file_and_aws_profiles_are_masked(tmp_path: Path) -> None:
    pgpass = tmp_path / "pgpass"
    pgpass.write_text("db.internal:5432:lake:etl:pgpass\\:word\n", encoding="utf-8")
    credentials = tmp_path / "credentials"
    credentials.write_text(
        "[default]\naws_access_key_id = AKIA\naws_secret_access_key = profile-secret-key\n",
        encoding="utf-8",
    )
    environ = {"PGPASSFILE": str(pgpass), "AWS_SHARED_CREDENTIALS_FILE": str(credentials)}

    assert scrub("pgpass:word and profile-secret-key", environ) == f"{MASK} and {MASK}"
