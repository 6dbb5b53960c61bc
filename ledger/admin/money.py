"""Money: posting batches and postings, settlements, payments and their paid marks, voided
settlements and book settlements. All history, read-only; "mark paid" calls the service."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin import RelatedOnlyFieldListFilter
from django.db.models import Count

from ..models import (
    BookSettlement,
    MoneyPosting,
    PaymentMark,
    PostingBatch,
    SessionSettlement,
    SettlementPayment,
    SettlementVoid,
)
from ..presentation.money import plain_amount
from ..selectors.evenings import settlement_nets
from .scoping import ReadOnlyAdminMixin, ReadOnlyInline, TableScopedAdmin


class MoneyPostingInline(ReadOnlyInline):
    model = MoneyPosting
    fields = ("player", "amount", "currency")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="amount")
    def amount(self, obj):
        return plain_amount(obj.amount_minor, obj.currency)


@admin.register(PostingBatch)
class PostingBatchAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "game__session__table"
    list_display = ("__str__", "game", "kind", "reverses", "memo", "created_by", "created_at")
    list_filter = ("kind", ("game__session__table", RelatedOnlyFieldListFilter), "created_at")
    search_fields = ("memo", "game__players__name")
    list_select_related = ("game__session__table", "reverses", "created_by")
    inlines = [MoneyPostingInline]


@admin.register(MoneyPosting)
class MoneyPostingAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "game__session__table"
    list_display = ("player", "amount", "currency", "game", "batch")
    list_filter = ("currency", "batch__kind",
                   ("game__session__table", RelatedOnlyFieldListFilter))
    search_fields = ("player__name", "batch__memo")
    list_select_related = ("player", "game__session__table", "batch")

    @admin.display(description="amount", ordering="amount_minor")
    def amount(self, obj):
        return plain_amount(obj.amount_minor, obj.currency)


class SettlementPaymentInline(ReadOnlyInline):
    model = SettlementPayment
    fields = ("order", "payer", "payee", "amount", "paid_at", "paid_by")
    readonly_fields = fields
    show_change_link = False

    @admin.display(description="amount")
    def amount(self, obj):
        return plain_amount(obj.amount_minor, obj.settlement.currency)


@admin.register(SessionSettlement)
class SessionSettlementAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "session__table"
    list_display = ("session", "currency", "settled_by", "settled_at", "payment_count")
    list_filter = ("currency", ("session__table", RelatedOnlyFieldListFilter), "settled_at")
    search_fields = ("session__place", "session__table__name")
    list_select_related = ("session__table", "settled_by")
    fields = ("session", "currency", "nets_text", "settled_by", "settled_at")
    readonly_fields = fields
    inlines = [SettlementPaymentInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_payments=Count("payments"))

    @admin.display(description="payments", ordering="n_payments")
    def payment_count(self, obj):
        return obj.n_payments

    @admin.display(description="nets")
    def nets_text(self, obj):
        return ", ".join(
            f"{name} {plain_amount(units, obj.currency)}"
            for name, units in settlement_nets(obj).items()  # today's names
        )


class PaymentMarkInline(ReadOnlyInline):
    model = PaymentMark
    fields = ("marked_at", "paid", "marked_by")
    readonly_fields = fields
    show_change_link = False


@admin.register(SettlementPayment)
class SettlementPaymentAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "settlement__session__table"
    list_display = ("settlement", "order", "payer", "payee", "amount", "paid_at", "paid_by")
    list_filter = (("paid_at", admin.EmptyFieldListFilter),
                   ("settlement__session__table", RelatedOnlyFieldListFilter))
    search_fields = ("payer__name", "payee__name")
    list_select_related = ("settlement__session__table", "payer", "payee", "paid_by")
    inlines = [PaymentMarkInline]
    actions = ["mark_paid"]

    @admin.display(description="amount", ordering="amount_minor")
    def amount(self, obj):
        return plain_amount(obj.amount_minor, obj.settlement.currency)

    def has_change_permission(self, request, obj=None):
        # Needed for the "mark paid" action; the change form itself stays read-only.
        return obj is None and request.user.has_perm("ledger.change_settlementpayment")

    @admin.action(description="Mark the selected payments as paid")
    def mark_paid(self, request, queryset):
        from ..services import settlement_payment_mark_paid

        for payment in queryset:
            settlement_payment_mark_paid(payment=payment, paid_by=request.user)
        self.message_user(request, f"{queryset.count()} payment(s) marked paid.")


# -- the book (issue 13): voided settlements and book settlements are history --------------

@admin.register(SettlementVoid)
class SettlementVoidAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "settlement__session__table"
    list_display = ("settlement", "reason", "voided_by", "voided_at")
    search_fields = ("reason", "settlement__session__table__name")
    list_select_related = ("settlement__session__table", "voided_by")


@admin.register(BookSettlement)
class BookSettlementAdmin(TableScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    table_lookup = "table"
    list_display = ("table", "currency", "settled_by", "settled_at")
    list_filter = ("currency", ("table", RelatedOnlyFieldListFilter))
    search_fields = ("table__name",)
    list_select_related = ("table", "settled_by")
