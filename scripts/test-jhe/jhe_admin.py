"""Server-side actions for `make test-jhe`, run with JHE's own Python and models.

Usage (from run.sh, with the JHE checkout as the working directory and PYTHONPATH, and
DJANGO_SETTINGS_MODULE naming the short-token settings):

    python jhe_admin.py provision SITE_URL      -> one JSON object (ids the tier needs)
    python jhe_admin.py invite PATIENT APP      -> an invitation link (PatientInvitation.build_link)
    python jhe_admin.py revoke USER             -> deletes the user's access and refresh tokens
    python jhe_admin.py consent PATIENT true|false
    python jhe_admin.py tokens USER             -> JSON: the user's token rows
    python jhe_admin.py clinic ORGANIZATION STUDY -> JSON: a second consenting patient and a
                                                   practitioner client (its key) for the clinic
    python jhe_admin.py delete-client APPLICATION -> deletes a practitioner client

This is a standalone script that calls django.setup(), which is what `manage.py shell -c`
does too, without Django's shell printing "N objects imported" first or needing the code
quoted into one argument. Everything is created through JHE's models (real-jhe.md, step 4),
so the rows are exactly what JHE's own views would create.
"""

import json
import sys

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from oauth2_provider.models import AccessToken, IDToken, RefreshToken, get_application_model  # noqa: E402

from core.models import (  # noqa: E402
    ClientDataSource,
    PractitionerClient,
    CodeableConcept,
    DataSource,
    DataSourceSupportedScope,
    JheClient,
    JheUser,
    Organization,
    PatientInvitation,
    PatientOrganization,
    PractitionerOrganization,
    Study,
    StudyClient,
    StudyDataSource,
    StudyPatient,
    StudyPatientScopeConsent,
    StudyScopeRequest,
)

HEART_RATE = ("https://w3id.org/openmhealth", "omh:heart-rate:2.0")


@transaction.atomic
def provision(site_url):
    """Organisation -> study asking for heart rate -> personal_device data source -> patient
    enrolled and consented -> a public OAuth client with an invitation URL (contract §7)."""
    heart_rate = CodeableConcept.objects.get(coding_system=HEART_RATE[0], coding_code=HEART_RATE[1])
    root = Organization.objects.get(id=0)
    organization = Organization.objects.create(name="Edge Gateway Test Lab", type="laboratory", part_of=root)
    # A seeded practitioner gets a role in it, as a study team would have.
    mary = JheUser.objects.get(email="manager_mary@example.com")
    PractitionerOrganization.objects.create(
        practitioner=mary.practitioner_profile, organization=organization, role=PractitionerOrganization.ROLE_MANAGER
    )

    study = Study.objects.create(
        name="Edge Gateway HR Study", description="make test-jhe: BLE heart-rate gateway", organization=organization
    )
    StudyScopeRequest.objects.create(study=study, scope_code=heart_rate)

    device = DataSource.objects.create(name="Edge BLE HR Gateway", type="personal_device")
    DataSourceSupportedScope.objects.create(data_source=device, scope_code=heart_rate)
    StudyDataSource.objects.create(study=study, data_source=device)

    # Trap 2 of real-jhe.md: public, authorization-code, skip_authorization, RS256, and the
    # redirect URI the invitation grant carries (site.url + /auth/callback), else /o/token/ 500s.
    Application = get_application_model()
    application = Application.objects.create(
        name="Edge Gateway (test-jhe)",
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        skip_authorization=True,
        redirect_uris=site_url + settings.OAUTH2_CALLBACK_PATH,
        algorithm="RS256",
    )
    # Trap 1: without a JheClient with an invitation_url, invitations fail with a 500.
    JheClient.objects.create(application=application, invitation_url=site_url + "/invite?code=CODE")
    ClientDataSource.objects.create(client=application, data_source=device)
    StudyClient.objects.create(study=study, client=application)

    user = JheUser.objects.create_user(
        email="edge-gateway-patient@example.com", user_type="patient", first_name="Pat", last_name="Gateway"
    )
    patient = user.patient_profile  # created by JheUser.save for user_type="patient"
    PatientOrganization.objects.create(patient=patient, organization=organization)
    study_patient = StudyPatient.objects.create(study=study, patient=patient)
    StudyPatientScopeConsent.objects.create(
        study_patient=study_patient, scope_code=heart_rate, consented=True, consented_time=timezone.now()
    )
    return {
        "organization_id": organization.id,
        "study_id": study.id,
        "device_id": device.id,
        "application_id": application.id,
        "client_id": application.client_id,
        "user_id": user.id,
        "patient_id": patient.id,
        "heart_rate_concept_id": heart_rate.id,
    }


def invite(patient_id, application_id):
    from core.models import Patient

    patient = Patient.objects.get(id=patient_id)
    application = get_application_model().objects.get(id=application_id)
    _, link = PatientInvitation.build_link(patient, application)
    return link


@transaction.atomic
def revoke(user_id):
    """What an administrator does to cut a device off: every token of the user goes. Counted
    before deleting, because deleting a refresh token cascades to its access token."""
    counts = {
        "access_tokens": AccessToken.objects.filter(user_id=user_id).count(),
        "refresh_tokens": RefreshToken.objects.filter(user_id=user_id).count(),
    }
    IDToken.objects.filter(user_id=user_id).delete()
    RefreshToken.objects.filter(user_id=user_id).delete()
    AccessToken.objects.filter(user_id=user_id).delete()
    return counts


def consent(patient_id, consented):
    updated = StudyPatientScopeConsent.objects.filter(
        study_patient__patient_id=patient_id,
        scope_code__coding_system=HEART_RATE[0],
        scope_code__coding_code=HEART_RATE[1],
    ).update(consented=consented, consented_time=timezone.now())
    if updated != 1:
        raise SystemExit(f"jhe_admin consent: expected one heart-rate consent row for patient {patient_id}, updated {updated}")
    return {"updated": updated, "consented": consented}


def tokens(user_id):
    """Token rows: django-oauth-toolkit keeps a rotated refresh token (revoked set) and
    deletes the access token it replaced, so refresh rows count enrolments + refreshes."""
    refresh = RefreshToken.objects.filter(user_id=user_id)
    return {
        "access_tokens": AccessToken.objects.filter(user_id=user_id).count(),
        "refresh_tokens": refresh.count(),
        "refresh_tokens_revoked": refresh.filter(revoked__isnull=False).count(),
        "refresh_tokens_live": refresh.filter(revoked__isnull=True).count(),
    }


@transaction.atomic
def clinic(organization_id, study_id):
    """A clinic gateway's world (contract §2b): a second patient of the organisation, enrolled in
    the study and consenting, and a practitioner client of the seeded manager made as JHE's
    PractitionerClientViewSet.create makes one (confidential, client-credentials, secret kept
    readable), with its key base64(client_id:secret)."""
    import base64
    import secrets
    import string

    heart_rate = CodeableConcept.objects.get(coding_system=HEART_RATE[0], coding_code=HEART_RATE[1])
    organization = Organization.objects.get(id=organization_id)
    study = Study.objects.get(id=study_id)
    user = JheUser.objects.create_user(
        email="edge-gateway-patient-2@example.com", user_type="patient", first_name="Sam", last_name="Clinic"
    )
    patient = user.patient_profile
    PatientOrganization.objects.create(patient=patient, organization=organization)
    study_patient = StudyPatient.objects.create(study=study, patient=patient)
    StudyPatientScopeConsent.objects.create(
        study_patient=study_patient, scope_code=heart_rate, consented=True, consented_time=timezone.now()
    )
    mary = JheUser.objects.get(email="manager_mary@example.com")
    alphabet = string.ascii_letters + string.digits
    client_id = "".join(secrets.choice(alphabet) for _ in range(16))
    secret = "".join(secrets.choice(alphabet) for _ in range(32))
    Application = get_application_model()
    application = Application.objects.create(
        user=mary,
        name=f"_practitioner_client_{mary.practitioner_profile.id}_test_jhe",
        client_id=client_id,
        client_secret=secret,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
        hash_client_secret=False,
        skip_authorization=True,
    )
    PractitionerClient.objects.create(application=application, practitioner=mary.practitioner_profile, label="test-jhe clinic")
    return {
        "patient_id": patient.id,
        "application_id": application.id,
        "key": base64.b64encode(f"{client_id}:{secret}".encode()).decode(),
    }


def delete_client(application_id):
    """What a practitioner does to cut a clinic gateway off: the client goes (and its tokens)."""
    deleted, _ = get_application_model().objects.filter(id=application_id).delete()
    return {"deleted": deleted}


def main(argv):
    command, args = argv[1], argv[2:]
    if command == "provision":
        print(json.dumps(provision(args[0].rstrip("/"))))
    elif command == "invite":
        print(invite(int(args[0]), int(args[1])))
    elif command == "revoke":
        print(json.dumps(revoke(int(args[0]))))
    elif command == "consent":
        print(json.dumps(consent(int(args[0]), {"true": True, "false": False}[args[1]])))
    elif command == "tokens":
        print(json.dumps(tokens(int(args[0]))))
    elif command == "clinic":
        print(json.dumps(clinic(int(args[0]), int(args[1]))))
    elif command == "delete-client":
        print(json.dumps(delete_client(int(args[0]))))
    else:
        raise SystemExit(f"jhe_admin: unknown command {command}")


if __name__ == "__main__":
    main(sys.argv)
